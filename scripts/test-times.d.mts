export declare const DEFAULT_REPORT_DIR: string;
export interface FileTime {
  suite: string;
  file: string;
  tests: number;
  failed: number;
  seconds: number;
}
export interface SuiteFigures {
  suite: string;
  files: FileTime[];
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
}
export declare function suiteFigures(suite: string, report: unknown, root: string): SuiteFigures;
export declare function timesTable(runs: { suite: string; seconds: number; exitCode?: number | null; figures: SuiteFigures | null }[], slowest?: number, wall?: number): string;
export declare function runsFromDir(dir: string, root: string): { suite: string; seconds: number; figures: SuiteFigures }[];
