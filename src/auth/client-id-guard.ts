import { checkOutboundUrl } from "../domain/outbound-address";
import { outboundPolicyFor } from "../domain/outbound-gate";
import { AUTHORIZE_PATH, TOKEN_PATH } from "./oauth-provider";

/** A Client ID Metadata Document's client_id is its https URL; registered clients have opaque ids. */
const looksLikeUrl = (clientId: string) => /^[a-z][a-z0-9+.-]*:/i.test(clientId);

/**
 * The provider fetches a client_id that is a URL (Client ID Metadata
 * Documents): before it does, the URL must pass the outbound-address guard.
 * Loopback is refused even in development, since a metadata document has to
 * be publicly reachable to mean anything. Null when the request may proceed.
 */
export async function screenClientId(request: Request, pathname: string, cairnEnv: string | undefined): Promise<Response | null> {
  const clientIds = new URL(request.url).searchParams.getAll("client_id");
  if (pathname === TOKEN_PATH && request.method === "POST" && (request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    clientIds.push(...new URLSearchParams(await request.clone().text()).getAll("client_id"));
  }
  for (const clientId of clientIds) {
    if (!looksLikeUrl(clientId)) continue;
    const verdict = checkOutboundUrl(clientId, outboundPolicyFor(cairnEnv, "client_metadata"));
    if (verdict.allowed) continue;
    const description = `This client's metadata URL cannot be used: ${verdict.reason}.`;
    if (pathname === AUTHORIZE_PATH) {
      return new Response(`<!doctype html><title>This app could not be verified</title><p>${description}</p>`, {
        status: 400,
        headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "cache-control": "no-store" },
      });
    }
    return new Response(JSON.stringify({ error: "invalid_client", error_description: description }), {
      status: 401,
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    });
  }
  return null;
}
