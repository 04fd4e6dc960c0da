/**
 * A sign-in through the org's provider between leaving Cairn and coming back: what the callback needs to finish it
 * (the PKCE verifier, the nonce the ID token must carry) and where the person goes after (the dashboard, or back to
 * the consent page of an MCP client's authorization). Kept server-side under the `state` value, for ten minutes,
 * used once; the browser that started it holds the same `state` in a cookie, so a callback carried to another
 * browser (a login forced on someone) is refused.
 */
export const SSO_PENDING_TTL_SECONDS = 600;

export type SsoReturn = { kind: "dashboard"; next: string } | { kind: "authorize"; search: string };

export interface PendingSsoSignIn {
  orgId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  createdAt: number;
  after: SsoReturn;
}

export type PendingCheck = { ok: true; pending: PendingSsoSignIn } | { ok: false; refusal: "state_unknown" | "state_mismatch" };

function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Whether the callback may go on: a pending sign-in exists for its `state` (none after its first use: a replay
 * finds nothing), it is not past its ten minutes, and the browser's cookie names the same state.
 */
export function checkPending(pending: PendingSsoSignIn | null, stateParam: string, cookieState: string | undefined, nowMs: number): PendingCheck {
  if (!pending || nowMs - pending.createdAt > SSO_PENDING_TTL_SECONDS * 1000) return { ok: false, refusal: "state_unknown" };
  if (!sameString(pending.state, stateParam)) return { ok: false, refusal: "state_unknown" };
  if (!cookieState || !sameString(cookieState, stateParam)) return { ok: false, refusal: "state_mismatch" };
  return { ok: true, pending };
}
