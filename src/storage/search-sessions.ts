import { newId } from "../domain/ids";
import type { SessionConfig } from "../domain/sessions/model";
import { checkStep, type RecordOutcome } from "../domain/sessions/steps";
import { NO_SESSION_HERE, type SearchSessionStore, SESSION_EXPIRED_HERE, sessionExpired, sessionNotFound, tooManySessions } from "../domain/sessions/store";
import { fromRpcError, type RpcResult } from "../domain/rpc-result";
import type { Env } from "../env";
import { findSessionRow, releaseSession, reserveSession } from "./search-session-index";

/** The object of a session: named by org and session, so a handle from another org reaches an empty object. */
const stubFor = (env: Env, orgId: string, sessionId: string) => env.SEARCH_SESSION.getByName(`${orgId}:${sessionId}`);

/**
 * The object of a session the org's index lists (one read by primary key), or not_found before any object is touched:
 * reaching an object makes its storage, so a probe (another org's id, a guess) would otherwise leave an object named
 * after the org that its erasure, which finds objects by its rows, cannot find. Only a new session reaches its object
 * unlisted, after its row is reserved.
 */
async function heldSession(env: Env, orgId: string, sessionId: string) {
  if (!(await findSessionRow(env.DB, orgId, sessionId))) throw sessionNotFound(sessionId);
  return stubFor(env, orgId, sessionId);
}

/**
 * Sessions in their Durable Objects, with the org-wide index in D1 beside them:
 * a new session first claims a slot in the index (the org's limit), and the
 * object updates its row after recording each step. A start whose object call
 * fails releases the slot; a row the object has written to (steps > 0) stays.
 */
export function durableSearchSessions(env: Env, config: SessionConfig): SearchSessionStore {
  /** Turns an object's answer into a value or the error the caller should read, worded with the id it asked for. */
  async function unwrap<T>(result: RpcResult<T>, orgId: string, sessionId: string, now: number): Promise<T> {
    if (result.ok) return result.value;
    const { code, message } = result.error;
    if (code === "invalid_transition" && message === SESSION_EXPIRED_HERE) {
      const row = await findSessionRow(env.DB, orgId, sessionId);
      throw sessionExpired(sessionId, row?.expires_at ?? now);
    }
    if (code === "not_found" && message === NO_SESSION_HERE) throw sessionNotFound(sessionId);
    throw fromRpcError(result.error);
  }

  return {
    async record(orgId, userId, input, now) {
      let sessionId = input.sessionId;
      let created = false;
      if (!sessionId) {
        // Refuse a bad first step before it takes a slot.
        checkStep([], input, config, true);
        sessionId = newId("srch");
        const full = await reserveSession(
          env.DB,
          { sessionId, orgId, createdBy: userId, researchGoal: input.researchGoal?.trim() || null, now, expiresAt: now + config.ttlMinutes * 60_000 },
          { maxActive: config.maxActivePerOrg, maxActivePerMember: config.maxActivePerMember },
        );
        if (full) throw tooManySessions(full, now);
        created = true;
      }
      const identity = created ? { sessionId, orgId, createdBy: userId } : null;
      const stub = created ? stubFor(env, orgId, sessionId) : await heldSession(env, orgId, sessionId);
      let result: RpcResult<RecordOutcome>;
      try {
        result = await stub.record({ identity, input, config }, now);
      } catch (error) {
        if (created) await releaseSession(env.DB, orgId, sessionId).catch(() => undefined);
        throw error;
      }
      if (!result.ok && created) await releaseSession(env.DB, orgId, sessionId).catch(() => undefined);
      // The object has brought the session's index row up to date itself (its alarm retries when D1 failed).
      return unwrap(result, orgId, sessionId, now);
    },

    async read(orgId, sessionId, now) {
      return unwrap(await (await heldSession(env, orgId, sessionId)).read(now), orgId, sessionId, now);
    },
  };
}
