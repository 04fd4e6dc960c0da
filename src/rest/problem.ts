import { insufficientScope as stepUpChallenge, type OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { type CairnError, httpStatusOf, insufficientScope } from "../domain/errors";

/** RFC 9457 problem details for a Cairn error: the REST face's one error mapping. */
export function problemResponse(error: CairnError, correlationId: string, headers: HeadersInit = {}): Response {
  const status = httpStatusOf(error.code);
  const body = {
    type: `urn:cairn:error:${error.code}`,
    title: error.code.replace(/_/g, " "),
    status,
    detail: error.message,
    code: error.code,
    correlationId,
    ...(error.details.issues ? { issues: error.details.issues } : {}),
    ...(error.details.requiredScopes ? { requiredScopes: error.details.requiredScopes } : {}),
    ...(error.details.url ? { url: error.details.url } : {}),
  };
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
  if (error.details.retryAfterSeconds !== undefined) response.headers.set("retry-after", String(error.details.retryAfterSeconds));
  if (error.details.allow) response.headers.set("allow", error.details.allow.join(", "));
  return response;
}

/**
 * 403 insufficient_scope: the provider's step-up challenge (`WWW-Authenticate` naming the scope and the
 * resource metadata, which OAuth clients act on) with the problem body every other REST error has.
 */
export function insufficientScopeResponse(
  auth: OAuthResourceContext<unknown>["auth"],
  requiredScopes: string[],
  description: string,
  correlationId: string,
): Response {
  const challenge = new Headers(stepUpChallenge(auth, requiredScopes, description).headers);
  challenge.delete("content-type");
  return problemResponse(insufficientScope(requiredScopes, `${description}, which this credential does not carry.`), correlationId, Object.fromEntries(challenge));
}
