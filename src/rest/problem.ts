import { type CairnError, httpStatusOf } from "../domain/errors";

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
  };
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
  if (error.details.retryAfterSeconds !== undefined) response.headers.set("retry-after", String(error.details.retryAfterSeconds));
  if (error.details.allow) response.headers.set("allow", error.details.allow.join(", "));
  return response;
}
