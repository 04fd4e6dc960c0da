// Types for hostile-run.mjs, so TypeScript tests can import it (the project does not type-check JS).
import type { ServedCase } from "./hostile-pages.mjs";

export declare const HOSTILE_VERDICT_WITHIN_MS: number;
export declare const HOSTILE_MEMORY_BOUND_MIB: number;

export interface HostileResult {
  name: string;
  /** The source's verdict, or "pending" when none came in time. */
  status: string;
  /** Milliseconds from recording the source to its verdict; null when none came. */
  ms: number | null;
}

export declare function workerdPids(port: string | number): number[];
export declare function memoryMiB(pids: number[]): { rss: number; hwm: number };
export declare function watchMemory(pids: number[], everyMs?: number): { baselineMiB: number; stop(): { baselineMiB: number; peakGrowthMiB: number; alive: boolean } };
export declare function checkHostileCases(options: { url: string; apiKey: string; origin: string; cases: ServedCase[]; withinMs?: number }): Promise<HostileResult[]>;
