import { newId } from "../domain/ids";
import type { Principal } from "../domain/principal";
import type { CallRecord } from "../domain/tool-calls";

const COLUMNS = [
  "id",
  "org_id",
  "user_id",
  "client_id",
  "api_key_id",
  "face",
  "operation",
  "duration_ms",
  "outcome",
  "error_code",
  "correlation_id",
  "created_at",
] as const;

type Row = unknown[];

// D1 binds at most 100 parameters per statement.
const ROWS_PER_STATEMENT = Math.floor(100 / COLUMNS.length);
/** How long a call's entry may wait for others to share its write. */
const BATCH_WINDOW_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The tool-call log, written in batches. Each call's entry waits a moment in
 * this isolate so that calls finishing together share one D1 batch instead of
 * one write each. No entry depends on another request: the request that
 * recorded an entry keeps itself alive (`waitUntil`) until a flush has taken
 * its entry, flushing itself when no other request did first, so an entry is
 * never left behind in memory, and no request waits on another's I/O, which
 * the Workers runtime does not allow.
 */
export class ToolCallLog {
  #pending: Row[] = [];

  constructor(private readonly db: D1Database) {}

  /** Queues the entry; the returned promise (for `waitUntil`) settles once it has been written. */
  async record(principal: Principal, call: CallRecord, at: number): Promise<void> {
    const row: Row = [
      newId("call"),
      principal.orgId,
      principal.userId,
      principal.clientId ?? null,
      principal.apiKeyId ?? null,
      call.face,
      call.operation,
      call.durationMs,
      call.outcome,
      call.errorCode,
      call.correlationId,
      at,
    ];
    this.#pending.push(row);
    await sleep(BATCH_WINDOW_MS);
    if (this.#pending.includes(row)) await this.#flush();
  }

  async #flush(): Promise<void> {
    const rows = this.#pending;
    this.#pending = [];
    const statements: D1PreparedStatement[] = [];
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
      const values = chunk.map(() => `(${COLUMNS.map(() => "?").join(", ")})`).join(", ");
      statements.push(this.db.prepare(`INSERT INTO tool_call_log (${COLUMNS.join(", ")}) VALUES ${values}`).bind(...chunk.flat()));
    }
    try {
      await this.db.batch(statements);
    } catch {
      // One retry covers a transient D1 failure; a second failure is reported by the caller's log.
      await sleep(BATCH_WINDOW_MS * 4);
      await this.db.batch(statements);
    }
  }
}
