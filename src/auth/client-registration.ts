import { REGISTRATION_LIMITS, registrationProblem } from "../domain/auth/client-registration";
import type { Env } from "../env";
import { readBoundedText } from "../platform/request-body";
import { clientAddress } from "./sign-in";

/** The Rate Limiting binding's window (wrangler.toml `[[ratelimits]]` period): how long a refused address waits at most. */
const REGISTRATION_WINDOW_SECONDS = 60;

const registrationError = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });

/**
 * POST /oauth/register before the provider sees it: a rate per client address
 * (Cloudflare's Rate Limiting binding) and bounded fields. Answers the refusal,
 * or the same request rebuilt from the body it read, for the provider to serve.
 */
export async function screenRegistration(request: Request, env: Env): Promise<Request | Response> {
  const { success } = await env.REGISTRATION_RATE_LIMITER.limit({ key: `register:${clientAddress(request)}` });
  if (!success) {
    return registrationError(429, "too_many_requests", "Too many client registrations from this address; try again in a minute.", {
      "retry-after": String(REGISTRATION_WINDOW_SECONDS),
    });
  }
  let text: string;
  try {
    // Counted as it streams: a body past the bound is refused before it is all in memory.
    text = await readBoundedText(request, REGISTRATION_LIMITS.bodyBytes);
  } catch {
    return registrationError(413, "invalid_client_metadata", `A registration is at most ${REGISTRATION_LIMITS.bodyBytes} bytes.`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return registrationError(400, "invalid_client_metadata", "The registration is not valid JSON.");
  }
  const problem = registrationProblem(document);
  if (problem) return registrationError(400, problem.error, problem.description);
  return new Request(request, { body: text });
}
