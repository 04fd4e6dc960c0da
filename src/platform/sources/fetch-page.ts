import { checkFetchHop, type SourceFetchRules } from "../../domain/sources/fetch-rules";
import { httpFailureReason, SOURCE_CHECK_LIMITS } from "../../domain/sources/verification";

export type FetchedPage =
  | { ok: true; finalUrl: string; status: number; contentType: string | null; body: Uint8Array; truncated: boolean }
  | { ok: false; reason: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a cited page the way a careful reader would, and no further: every address (the first and each
 * redirect, followed by hand) passes checkFetchHop (the outbound-address guard, SOURCE_CHECK_HOSTS and the org's
 * blocked domains) before it is requested; at most SOURCE_CHECK_LIMITS.maxRedirects hops; one deadline for the whole
 * fetch; at most maxBytes of body read (a longer page is cut, not refused). A failure's reason starts with its
 * stable code (UNREACHABLE_KINDS in src/domain/sources/verification.ts).
 */
export async function fetchPage(
  url: string,
  rules: SourceFetchRules,
  userAgent: string,
  limits: { maxRedirects: number; timeoutMs: number; maxBytes: number } = SOURCE_CHECK_LIMITS,
): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let target = url;
  try {
    for (let hop = 0; ; hop++) {
      const verdict = checkFetchHop(target, hop, rules);
      if (!verdict.allowed) return { ok: false, reason: verdict.reason };
      const response = await fetch(verdict.url.href, {
        redirect: "manual",
        signal,
        headers: { "user-agent": userAgent, accept: "text/html, text/plain, text/markdown, application/json;q=0.9, */*;q=0.5" },
      });
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        if (!location) return { ok: false, reason: `http_error: HTTP ${response.status} redirect without a Location` };
        if (hop >= limits.maxRedirects) return { ok: false, reason: `http_error: more than ${limits.maxRedirects} redirects` };
        const next = URL.parse(location, verdict.url);
        if (!next) return { ok: false, reason: `http_error: HTTP ${response.status} redirect to an address that is not a URL` };
        target = next.href;
        continue;
      }
      if (response.status >= 400) {
        await response.body?.cancel();
        return { ok: false, reason: httpFailureReason(response.status) };
      }
      const { body, truncated } = await readBounded(response, limits.maxBytes);
      return { ok: true, finalUrl: verdict.url.href, status: response.status, contentType: response.headers.get("content-type"), body, truncated };
    }
  } catch (error) {
    if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
      return { ok: false, reason: `timeout: no complete answer within ${limits.timeoutMs / 1000} s` };
    }
    // The runtime's message adds an internal reference id ("internal error; reference = …") that helps no reader
    // and differs on every attempt: it is left out, so the same failure reads the same every time.
    const message = (error instanceof Error ? error.message : String(error)).replace(/;?\s*reference\s*=\s*\S+/gi, "").trim();
    // workerd throws the same "internal error" for a host name that does not resolve as for a failed TLS handshake
    // (the cause is only in its own log), so a name that does not resolve cannot be told from a connection failure:
    // both are `connection`, never `dead` (a page that may be live is not called made up).
    return { ok: false, reason: `connection: the name did not resolve, or the connection or TLS failed (${message.slice(0, 120)})` };
  }
}

/** The first `maxBytes` bytes of the body; the stream is cancelled past them. */
async function readBounded(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.byteLength >= room) {
      chunks.push(value.subarray(0, room));
      size += room;
      truncated = value.byteLength > room || !(await reader.read().then((next) => next.done));
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body, truncated };
}
