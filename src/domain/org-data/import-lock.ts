import { CairnError } from "../errors";

/**
 * An import lock whose heartbeat is older than this is one whose Worker died mid-import: it no longer holds
 * the org, and the org's next import or erasure takes back what it wrote. Well above the heartbeat's period
 * plus the bound of an isolate's memory of the lock (MEMBERSHIP_CACHE_MS), so a live import is never taken for dead.
 */
export const IMPORT_LOCK_STALE_MS = 60_000;

/** How often a running import refreshes its heartbeat (at most one directory write per period, as it reads its file). */
export const IMPORT_HEARTBEAT_MS = 10_000;

/** Seconds a caller refused by a running import should wait before trying again. */
export const IMPORT_RETRY_AFTER_SECONDS = 30;

/**
 * Whether an import whose last sign of life was at `aliveAt` (ms: its heartbeat, or its start before the
 * first beat; null: no import) still holds the org at `now`.
 */
export const importHolds = (aliveAt: number | null, now: number): boolean => aliveAt !== null && aliveAt >= now - IMPORT_LOCK_STALE_MS;

/** Whether an import whose heartbeat was last refreshed at `beatAt` should refresh it at `now`. */
export const heartbeatDue = (beatAt: number, now: number): boolean => now - beatAt >= IMPORT_HEARTBEAT_MS;

/**
 * The refusal of an import into an org whose erasure has begun. No retry will help: the erasure, once
 * begun, is finished by running it again (it is safe to), and the org is gone after it.
 */
export function erasureBegun(since: number): CairnError {
  return new CairnError(
    "org_erasing",
    `This organization is being erased (started ${new Date(since).toISOString()}); nothing can be imported into it. If the erasure stopped half-way, run it again to finish it.`,
  );
}

/** The refusal of what must not run beside an import (another import, an erasure, a write), with when the import began (or was last active). */
export function importRunning(since: number, refused: string, when: "started" | "last active" = "started"): CairnError {
  return new CairnError(
    "import_in_progress",
    `${refused} (${when} ${new Date(since).toISOString()}); wait for it to finish. An import whose server stopped stops blocking within a minute, and what it wrote is taken back.`,
    { retryAfterSeconds: IMPORT_RETRY_AFTER_SECONDS },
  );
}
