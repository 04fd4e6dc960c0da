import { CairnError } from "../errors";
import { importHolds, importRunning } from "./import-lock";

/**
 * The two org-wide marks that close an org to writes: an import running into it (`importingSince`: its
 * last sign of life, `orgs.import_heartbeat_at`, or `orgs.importing_since` before its first beat) and its
 * erasure begun (`orgs.erasing_since`), in ms, null when unset.
 * Admission reads them with the caller's membership (one statement, cached with it), so the
 * gate costs no round trip of its own.
 */
export interface OrgMarks {
  importingSince: number | null;
  erasingSince: number | null;
}

export const UNMARKED: OrgMarks = { importingSince: null, erasingSince: null };

/** The refusal of a write to an org whose erasure has begun: final, so no retry hint. */
export function orgBeingErased(since: number | null): CairnError {
  const started = since === null ? "" : ` (started ${new Date(since).toISOString()})`;
  return new CairnError("org_erasing", `This organization is being erased${started}: nothing more can be written to it, and everything in it is being deleted.`);
}

/**
 * Whether a write may go ahead in an org with these marks, or the refusal to answer with:
 * erasure first (final), then a running import (409 with Retry-After: reads keep working meanwhile).
 * An import lock whose heartbeat is stale is a dead import and no longer closes the org.
 */
export function writeRefusal(marks: OrgMarks | undefined, now: number): CairnError | null {
  if (!marks) return null;
  if (marks.erasingSince !== null) return orgBeingErased(marks.erasingSince);
  if (importHolds(marks.importingSince, now)) {
    return importRunning(marks.importingSince ?? now, "This organization's data is being imported, and writes to it wait until the import ends; reads keep working", "last active");
  }
  return null;
}

/**
 * The text the databases' own gate raises (migration 0018: a trigger on every table that holds an org's
 * rows refuses an insert for an org that is being erased or is gone). A write that passed the gate above
 * before the erasure's mark, and lands after it, fails with this text in its error.
 */
export const DATABASE_GATE_MESSAGE = "cairn: organization being erased";

/** The refusal to answer for an error the databases' gate raised (anywhere in its cause chain), or null for any other error. */
export function refusedByDatabaseGate(error: unknown): CairnError | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause.message.includes(DATABASE_GATE_MESSAGE)) return orgBeingErased(null);
  }
  return null;
}
