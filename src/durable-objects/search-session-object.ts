import { DurableObject } from "cloudflare:workers";
import { CairnError, conflict } from "../domain/errors";
import type { SearchSession, SessionConfig, SessionHeader, SessionStep, StepInput } from "../domain/sessions/model";
import { appendStep, type RecordOutcome, type SessionIdentity, startSession } from "../domain/sessions/steps";
import { NO_SESSION_HERE, SESSION_EXPIRED_HERE } from "../domain/sessions/store";
import type { TableDump } from "../domain/org-data/format";
import type { Env } from "../env";
import { markSessionExpired, syncSessionIndex } from "../storage/search-session-index";
import { rpcFailure, type RpcResult } from "../domain/rpc-result";
import { dumpTables, restoreTables } from "./storage-dump";

export interface RecordCommand {
  /** Set for step 1 of a new session; absent to continue the session stored here. */
  identity: SessionIdentity | null;
  input: StepInput;
  config: SessionConfig;
}

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS header (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS steps (step_number INTEGER PRIMARY KEY, data TEXT NOT NULL)",
  // A row here: the D1 index has not yet taken the session as of `steps` steps (written with them, cleared once D1 has it).
  "CREATE TABLE IF NOT EXISTS index_pending (id INTEGER PRIMARY KEY CHECK (id = 1), steps INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)",
];

/** Delay before the alarm tries the index again, by failed attempts. */
const INDEX_RETRY_MS = [1_000, 5_000, 30_000, 120_000];

const SESSION_TABLES = ["header", "steps"] as const;


/**
 * One sequential search session, named "<orgId>:<sessionId>", in its own SQLite:
 * the header and one row per step. Steps on one session are serialized by the
 * object (the check and the write happen with no await between them). One alarm
 * at the expiry time deletes the session after its inactivity limit; every step
 * moves it. Nothing is kept in memory, so an evicted or restarted object answers
 * exactly as before.
 */
export class SearchSessionObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#ensureSchema();
  }

  async record(command: RecordCommand, now = Date.now()): Promise<RpcResult<RecordOutcome>> {
    try {
      const stored = this.#load();
      let outcome: RecordOutcome;
      if (command.identity) {
        if (stored) throw conflict("A session with this id already exists.");
        outcome = { session: startSession(command.identity, command.input, now, command.config), replayed: false };
        this.#persist(outcome.session, outcome.session.steps);
      } else {
        if (!stored) throw new CairnError("not_found", NO_SESSION_HERE);
        if (stored.expiredAt || stored.expiresAt <= now) {
          await this.#expire(stored);
          throw new CairnError("invalid_transition", SESSION_EXPIRED_HERE);
        }
        outcome = appendStep(stored, command.input, now, command.config);
        const added = outcome.session.steps.slice(stored.steps.length);
        if (!outcome.replayed) this.#persist(outcome.session, added);
      }
      // A replayed step (the caller retrying after a lost answer) still brings a lagging index up to date.
      await this.#syncIndex();
      await this.#arm();
      return { ok: true, value: outcome };
    } catch (error) {
      if (error instanceof CairnError) return rpcFailure(error);
      throw error;
    }
  }

  async read(now = Date.now()): Promise<RpcResult<SearchSession>> {
    const stored = this.#load();
    if (!stored) return rpcFailure(new CairnError("not_found", NO_SESSION_HERE));
    if (stored.expiresAt <= now && !stored.expiredAt) return { ok: true, value: { ...stored, expiredAt: await this.#expire(stored) } };
    return { ok: true, value: stored };
  }

  /**
   * Runs at the expiry time, or sooner when the index lags. A step since the alarm was set moved
   * the expiry: then it only re-arms.
   */
  override async alarm(): Promise<void> {
    await this.#syncIndex();
    const header = this.#header();
    if (!header || header.expiredAt) return;
    if (header.expiresAt > Date.now()) {
      await this.#arm();
      return;
    }
    await this.#expire(header);
  }

  /** The session's storage for an org export. */
  async exportState(): Promise<TableDump | null> {
    return this.#header() ? dumpTables(this.ctx.storage.sql, SESSION_TABLES) : null;
  }

  /** Recreates an exported session in this (empty) object; its expiry alarm is set again unless it has expired. */
  async importState(tables: TableDump, now = Date.now()): Promise<RpcResult<{ sessionId: string }>> {
    if (this.#header()) return rpcFailure(conflict("This search session already exists; an import never overwrites one."));
    try {
      this.ctx.storage.transactionSync(() => restoreTables(this.ctx.storage.sql, tables, SESSION_TABLES));
    } catch (error) {
      return rpcFailure(new CairnError("validation", `The search session's state does not fit: ${error instanceof Error ? error.message : String(error)}`));
    }
    const header = this.#header();
    if (!header) return rpcFailure(new CairnError("validation", "The search session's state has no header."));
    if (!header.expiredAt && header.expiresAt > now) await this.ctx.storage.setAlarm(header.expiresAt);
    return { ok: true, value: { sessionId: header.sessionId } };
  }

  /** Erases everything this object stores; the empty tables are made again, so a late call finds no session. */
  async erase(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#ensureSchema();
  }

  // ------------------------------------------------------------ internals

  #ensureSchema(): void {
    for (const statement of SCHEMA) this.ctx.storage.sql.exec(statement);
  }

  #header(): SessionHeader | null {
    const row = this.ctx.storage.sql.exec<{ data: string }>("SELECT data FROM header WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.data) as SessionHeader) : null;
  }

  #load(): SearchSession | null {
    const header = this.#header();
    if (!header) return null;
    const steps = this.ctx.storage.sql
      .exec<{ data: string }>("SELECT data FROM steps ORDER BY step_number")
      .toArray()
      .map((row) => JSON.parse(row.data) as SessionStep);
    return { ...header, steps };
  }

  #persist(session: SearchSession, newSteps: readonly SessionStep[]): void {
    const { steps: _steps, ...header } = session;
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec("INSERT INTO header (id, data) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data", JSON.stringify(header));
      for (const step of newSteps) this.ctx.storage.sql.exec("INSERT INTO steps (step_number, data) VALUES (?, ?)", step.stepNumber, JSON.stringify(step));
      this.ctx.storage.sql.exec("INSERT INTO index_pending (id, steps) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET steps = excluded.steps", session.steps.length);
    });
  }

  #pendingAttempts(): number | null {
    return this.ctx.storage.sql.exec<{ attempts: number }>("SELECT attempts FROM index_pending WHERE id = 1").toArray()[0]?.attempts ?? null;
  }

  /**
   * Writes the session's row of the org's D1 index when the newest step has not reached it. A failure
   * is the alarm's to retry (see #arm), never the caller's: the step is recorded.
   */
  async #syncIndex(): Promise<void> {
    if (this.#pendingAttempts() === null) return;
    const session = this.#load();
    if (!session || session.expiredAt) {
      this.ctx.storage.sql.exec("DELETE FROM index_pending");
      return;
    }
    const { steps, ...header } = session;
    try {
      await syncSessionIndex(this.env.DB, { ...header, stepCount: steps.length });
      // A step recorded while D1 answered is still owed: only what was sent is cleared.
      this.ctx.storage.sql.exec("DELETE FROM index_pending WHERE steps <= ?", steps.length);
    } catch (error) {
      this.ctx.storage.sql.exec("UPDATE index_pending SET attempts = attempts + 1");
      console.error(JSON.stringify({ level: "warn", message: "search session index update deferred", error: String(error) }));
    }
  }

  /** The one alarm: at the expiry time, or sooner while the index waits for a retry. */
  async #arm(): Promise<void> {
    const header = this.#header();
    if (!header || header.expiredAt) return;
    const attempts = this.#pendingAttempts();
    const retryAt = attempts === null ? Number.POSITIVE_INFINITY : Date.now() + (INDEX_RETRY_MS[Math.min(attempts, INDEX_RETRY_MS.length - 1)] ?? 120_000);
    await this.ctx.storage.setAlarm(Math.min(header.expiresAt, retryAt));
  }

  /**
   * Closes the session to new steps; what the user recorded is kept (read-only).
   * The D1 index frees its slot; a failure there is only logged, since the index
   * counts a session as active only until its expiry time anyway.
   */
  async #expire(header: SessionHeader): Promise<number> {
    const expiredAt = header.expiredAt ?? header.expiresAt;
    if (!header.expiredAt) {
      const { steps: _steps, ...stored } = header as SessionHeader & { steps?: unknown };
      this.ctx.storage.sql.exec("UPDATE header SET data = ? WHERE id = 1", JSON.stringify({ ...stored, expiredAt }));
    }
    try {
      await markSessionExpired(this.env.DB, header.orgId, header.sessionId);
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", message: "search session index not marked expired", error: String(error) }));
    }
    await this.ctx.storage.deleteAlarm();
    return expiredAt;
  }
}
