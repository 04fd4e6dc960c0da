/**
 * Refresh-token rotation with reuse detection (RFC 9700 §4.14.2), as a pure
 * policy over the hashes of one grant's refresh tokens. The adapter
 * (GrantGuardObject) runs every refresh of a grant through it, one at a time.
 *
 * - The current token rotates: the caller gets a new pair.
 * - The immediately preceding token, within `REFRESH_GRACE_MS` of its
 *   rotation, gets the very same successor pair again (a lost response, or two
 *   tabs racing): never a second live successor.
 * - Any other known generation (older, or the preceding one after the window)
 *   means a token leaked: the whole grant is revoked.
 * - A token this grant never issued is refused without revoking anything, so
 *   guessing at a grant id cannot end someone else's access.
 */
export const REFRESH_GRACE_MS = 60_000;

/** Older generations remembered for reuse detection; past this, they are plainly unknown (still refused). */
export const REMEMBERED_GENERATIONS = 50;

export interface RotationState {
  /** Hash of the refresh token that rotates next; null until this grant's first refresh is seen. */
  current: string | null;
  /** Hash of the token the last rotation consumed. */
  previous: string | null;
  /** When the last rotation happened (ms since the epoch). */
  rotatedAt: number | null;
  /** Hashes of the generations before `previous`, newest first. */
  older: string[];
  revoked: boolean;
}

export const INITIAL_ROTATION_STATE: RotationState = { current: null, previous: null, rotatedAt: null, older: [], revoked: false };

export type RefreshDecision =
  /** Let the authorization server rotate the token. */
  | { kind: "rotate" }
  /** Answer the last rotation's response again. */
  | { kind: "replay" }
  /** Reuse of a spent token: revoke the grant, answer invalid_grant. */
  | { kind: "revoke"; reason: "previous_after_grace" | "older_generation" }
  /** Not a token of this grant (or the grant is already revoked): invalid_grant, nothing else. */
  | { kind: "refuse"; reason: "revoked" | "unknown_token" };

export function decideRefresh(state: RotationState, presented: string, now: number): RefreshDecision {
  if (state.revoked) return { kind: "refuse", reason: "revoked" };
  if (state.current === null || presented === state.current) return { kind: "rotate" };
  if (presented === state.previous) {
    const withinGrace = state.rotatedAt !== null && now - state.rotatedAt <= REFRESH_GRACE_MS;
    return withinGrace ? { kind: "replay" } : { kind: "revoke", reason: "previous_after_grace" };
  }
  if (state.older.includes(presented)) return { kind: "revoke", reason: "older_generation" };
  return { kind: "refuse", reason: "unknown_token" };
}

/** The state after `presented` rotated into `successor` at `now`. */
export function afterRotation(state: RotationState, presented: string, successor: string, now: number): RotationState {
  const older = [state.previous, ...state.older].filter((hash): hash is string => hash !== null && hash !== presented);
  return { current: successor, previous: presented, rotatedAt: now, older: older.slice(0, REMEMBERED_GENERATIONS), revoked: false };
}

export const afterRevocation = (state: RotationState): RotationState => ({ ...state, revoked: true });

/**
 * Scopes a refresh may ask for: a subset of what the grant holds (RFC 6749 §6).
 * Returns the scopes asked for beyond the grant, empty when the request is fine.
 */
export function scopesBeyondGrant(requested: string | null, granted: readonly string[]): string[] {
  if (requested === null) return [];
  return requested
    .split(" ")
    .filter(Boolean)
    .filter((scope) => !granted.includes(scope));
}
