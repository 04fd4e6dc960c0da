/**
 * When a failed fetch of a cited page is the network's fault, not the page's, and is tried again: a connection lost,
 * reset or refused, a timeout before the first byte of the answer, a 502, 503 or 504 (a proxy or server between
 * Cairn and the page) and a 429 (a rate limit, whose `Retry-After` is honoured). Each retry opens a fresh
 * connection, after a doubling wait. A 404 or 410 is the page's own answer: dead at once, never retried. Pure.
 */
import { PENDING_SWEEP } from "./check-scheduling";
import { SOURCE_CHECK_LIMITS } from "./verification";

export const FETCH_RETRY = {
  /** Attempts of one fetch: the first and two retries. */
  attempts: 3,
  /** The wait before the first retry, doubled before each next one. */
  baseDelayMs: 500,
  /** A `Retry-After` this short is waited for within the fetch; a longer one puts the whole check off (see deferral). */
  inlineRetryAfterMs: 10_000,
} as const;

/** HTTP statuses the network or a busy server gives, worth a fresh try. */
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/** What a failed attempt was, as the fetcher saw it. */
export type FetchFailure =
  | { kind: "connection" }
  /** The deadline passed: `headers` says whether the answer had begun (a body too slow to end is not retried). */
  | { kind: "timeout"; headers: boolean }
  | { kind: "status"; status: number; retryAfterMs: number | null };

/** What to do after failed attempt `attempt` (1 for the first): try again after `waitMs`, or stop. */
export type RetryDecision = { retry: true; waitMs: number } | { retry: false; retryAfterMs: number | null };

/** The `Retry-After` header in milliseconds from `now`: delay seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/** Whether a failure is the network's (or a busy server's) and may pass on a fresh try. */
export function isTransient(failure: FetchFailure): boolean {
  if (failure.kind === "connection") return true;
  if (failure.kind === "timeout") return !failure.headers;
  return RETRIED_STATUSES.has(failure.status);
}

/**
 * After failed attempt `attempt`: a transient failure is tried again, at most FETCH_RETRY.attempts in all, after
 * baseDelayMs × 2^(attempt − 1), or after its `Retry-After` when that is longer and short enough to wait within the
 * fetch. A longer `Retry-After` ends the fetch with it, for the check to be put off (deferral).
 */
export function afterFailure(failure: FetchFailure, attempt: number, baseDelayMs: number = FETCH_RETRY.baseDelayMs): RetryDecision {
  const asked = failure.kind === "status" ? failure.retryAfterMs : null;
  if (!isTransient(failure) || attempt >= FETCH_RETRY.attempts) return { retry: false, retryAfterMs: asked };
  if (asked !== null && asked > FETCH_RETRY.inlineRetryAfterMs) return { retry: false, retryAfterMs: asked };
  const backoff = baseDelayMs * 2 ** (attempt - 1);
  return { retry: true, waitMs: Math.max(backoff, asked ?? 0) };
}

/**
 * Whether a check whose page asked to be read again in `retryAfterMs` may be put off that long: only while the check
 * still ends in a verdict within SOURCE_CHECK_LIMITS.pendingMaxMs of being asked for, the pending sweep's period and
 * a whole fetch (its attempts and their deadlines) kept in hand. Otherwise the verdict is recorded now (walled).
 */
export function mayDefer(askedAt: number, now: number, retryAfterMs: number): boolean {
  const fetchBudget = FETCH_RETRY.attempts * SOURCE_CHECK_LIMITS.timeoutMs + 2 * FETCH_RETRY.inlineRetryAfterMs;
  return now + retryAfterMs + fetchBudget <= askedAt + SOURCE_CHECK_LIMITS.pendingMaxMs - PENDING_SWEEP.everyMs;
}
