import { CairnError } from "../errors";

/** An import lock older than this is one whose Worker died mid-import: it no longer holds the org. */
export const IMPORT_LOCK_STALE_MS = 60 * 60_000;

/** Seconds a caller refused by a running import should wait before trying again. */
export const IMPORT_RETRY_AFTER_SECONDS = 30;

/** Whether an import that began at `since` (ms, null: none) still holds the org at `now`. */
export const importHolds = (since: number | null, now: number): boolean => since !== null && since >= now - IMPORT_LOCK_STALE_MS;

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

/** The refusal of what must not run beside an import (another import, an erasure, a write), with when the import began. */
export function importRunning(since: number, refused: string): CairnError {
  return new CairnError(
    "import_in_progress",
    `${refused} (started ${new Date(since).toISOString()}); wait for it to finish. An import that never finishes stops blocking an hour after it started.`,
    { retryAfterSeconds: IMPORT_RETRY_AFTER_SECONDS },
  );
}
