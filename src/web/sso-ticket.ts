import type { Env } from "../env";
import { cookieHeader, cookieSecurity, randomToken, readCookie, sha256Hex } from "./dashboard/session";

/**
 * A sign-in through the org's provider that began on the consent page of an MCP client's authorization goes back
 * there: the callback leaves a one-time ticket (KV, five minutes, bound to this browser by a cookie and to that
 * authorization request's query), and /authorize, finding it, shows the consent page for that person and org.
 * The consent page stays under /authorize's own headers.
 */
const TICKET_TTL_SECONDS = 300;
const ticketKey = (hash: string) => `cairn:sso:ticket:${hash}`;
const cookieName = (env: Env) => (cookieSecurity(env.PUBLIC_URL).secure ? "__Host-cairn-sso-ticket" : "cairn-sso-ticket");

export interface SsoTicket {
  userId: string;
  email: string;
  orgId: string;
  search: string;
}

/** Leaves the ticket; returns the Set-Cookie value. */
export async function leaveSsoTicket(env: Env, ticket: SsoTicket): Promise<string> {
  const token = randomToken();
  await env.OAUTH_KV.put(ticketKey(await sha256Hex(token)), JSON.stringify(ticket), { expirationTtl: TICKET_TTL_SECONDS });
  return cookieHeader(env.PUBLIC_URL, cookieName(env), token, TICKET_TTL_SECONDS);
}

/** The ticket this browser holds for this authorization request, used up; null when there is none. */
export async function takeSsoTicket(env: Env, request: Request, search: string): Promise<{ ticket: SsoTicket; clearCookie: string } | null> {
  const token = readCookie(request, cookieName(env));
  if (!token || token.length > 100) return null;
  const key = ticketKey(await sha256Hex(token));
  const raw = await env.OAUTH_KV.get(key);
  if (!raw) return null;
  await env.OAUTH_KV.delete(key);
  const ticket = JSON.parse(raw) as SsoTicket;
  if (ticket.search !== search) return null;
  return { ticket, clearCookie: cookieHeader(env.PUBLIC_URL, cookieName(env), "", 0) };
}
