import { CairnError, rateLimited } from "../errors";
import type { SearchSession, StepInput } from "./model";
import type { RecordOutcome } from "./steps";

/**
 * Where sessions live. Every call names the org: a session of another org is
 * simply not there (not_found), exactly like a missing one. Failures are thrown
 * as CairnError.
 */
export interface SearchSessionStore {
  /** Records one step; without `input.sessionId` it starts a new session (within the org's limit of active sessions). */
  record(orgId: string, userId: string, input: StepInput, now: number): Promise<RecordOutcome>;
  read(orgId: string, sessionId: string, now: number): Promise<SearchSession>;
}

/** What an empty session object answers: never created under this name, or already deleted. */
export const NO_SESSION_HERE = "No session here.";
/** What a session object answers to a step once its inactivity limit has passed (it stays readable). */
export const SESSION_EXPIRED_HERE = "Session expired.";

export const sessionNotFound = (sessionId: string) => new CairnError("not_found", `No search session with id "${sessionId}" exists.`);

export const sessionExpired = (sessionId: string, expiredAt: number) =>
  new CairnError(
    "invalid_transition",
    `Search session "${sessionId}" expired at ${new Date(expiredAt).toISOString()} after a period without steps; it takes no more steps ` +
      "but stays readable with get_research_session. Start a new session with stepNumber 1 (carry over its summary).",
  );

/** The note an expired session is read with. */
export const expiredNote = (expiredAt: number) =>
  `This session expired at ${new Date(expiredAt).toISOString()} after a period without steps: it is read-only; start a new session to continue.`;

/** Which share of active sessions is full, and when the first of them expires (a slot frees then at the latest). */
export interface SessionLimitReached {
  scope: "org" | "member";
  limit: number;
  nextExpiryAt: number | null;
}

export const tooManySessions = ({ scope, limit, nextExpiryAt }: SessionLimitReached, now: number) =>
  rateLimited(
    `${scope === "org" ? "Your organization already has" : "You already hold"} ${limit} active search sessions, the limit${scope === "member" ? " for one member" : ""}. ` +
      "Complete one (nextStepNeeded=false) or let it expire, then start again.",
    nextExpiryAt === null ? 60 : (nextExpiryAt - now) / 1000,
  );
