import { checkFetchHop, type SourceFetchRules } from "../../domain/sources/fetch-rules";
import { afterFailure, FETCH_RETRY, type FetchFailure, retryAfterMs } from "../../domain/sources/fetch-retry";
import { httpFailureReason, SOURCE_CHECK_LIMITS } from "../../domain/sources/verification";

export type FetchedPage =
  | { ok: true; finalUrl: string; status: number; contentType: string | null; body: Uint8Array; truncated: boolean }
  /** `retryAfterMs`: the page asked to be read again later, longer than a fetch waits (the check may be put off). */
  | { ok: false; reason: string; retryAfterMs?: number };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type Attempt = { page: FetchedPage; failure: FetchFailure | null };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Fetches a cited page the way a careful reader would, and no further: every address (the first and each
 * redirect, followed by hand) passes checkFetchHop (the outbound-address guard, SOURCE_CHECK_HOSTS and the org's
 * blocked domains) before it is requested; at most SOURCE_CHECK_LIMITS.maxRedirects hops; one deadline for each
 * attempt; at most maxBytes of body read (a longer page is cut, not refused). A failure that is the network's
 * (a connection lost or reset, a timeout before the first byte, 429, 502, 503, 504) is tried again on a fresh
 * connection after a doubling wait, honouring a short `Retry-After` (src/domain/sources/fetch-retry.ts); a 404 or
 * 410 is dead at once. A failure's reason starts with its stable code (UNREACHABLE_KINDS in
 * src/domain/sources/verification.ts).
 */
export async function fetchPage(
  url: string,
  rules: SourceFetchRules,
  userAgent: string,
  limits: { maxRedirects: number; timeoutMs: number; maxBytes: number } = SOURCE_CHECK_LIMITS,
  retry: { baseDelayMs: number } = FETCH_RETRY,
): Promise<FetchedPage> {
  for (let attempt = 1; ; attempt++) {
    const { page, failure } = await fetchOnce(url, rules, userAgent, limits);
    if (page.ok || failure === null) return page;
    const next = afterFailure(failure, attempt, retry.baseDelayMs);
    if (!next.retry) {
      const tried = attempt > 1 ? ` (tried ${attempt} times)` : "";
      return { ok: false, reason: `${page.reason}${tried}`, ...(next.retryAfterMs !== null && next.retryAfterMs > FETCH_RETRY.inlineRetryAfterMs ? { retryAfterMs: next.retryAfterMs } : {}) };
    }
    await sleep(next.waitMs);
  }
}

/** One attempt: the page, or its failure and (for one the network may have caused) what kind it was. */
async function fetchOnce(url: string, rules: SourceFetchRules, userAgent: string, limits: { maxRedirects: number; timeoutMs: number; maxBytes: number }): Promise<Attempt> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const failed = (reason: string, failure: FetchFailure | null = null): Attempt => ({ page: { ok: false, reason }, failure });
  let target = url;
  let headers = false;
  try {
    for (let hop = 0; ; hop++) {
      const verdict = checkFetchHop(target, hop, rules);
      if (!verdict.allowed) return failed(verdict.reason);
      headers = false;
      const response = await fetch(verdict.url.href, {
        redirect: "manual",
        signal,
        headers: { "user-agent": userAgent, accept: "text/html, text/plain, text/markdown, application/json;q=0.9, */*;q=0.5" },
      });
      headers = true;
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        if (!location) return failed(`http_error: HTTP ${response.status} redirect without a Location`);
        if (hop >= limits.maxRedirects) return failed(`http_error: more than ${limits.maxRedirects} redirects`);
        const next = URL.parse(location, verdict.url);
        if (!next) return failed(`http_error: HTTP ${response.status} redirect to an address that is not a URL`);
        target = next.href;
        continue;
      }
      if (response.status >= 400) {
        await response.body?.cancel();
        const retryAfter = retryAfterMs(response.headers.get("retry-after"), Date.now());
        return failed(httpFailureReason(response.status), { kind: "status", status: response.status, retryAfterMs: retryAfter });
      }
      const { body, truncated } = await readBounded(response, limits.maxBytes);
      return { page: { ok: true, finalUrl: verdict.url.href, status: response.status, contentType: response.headers.get("content-type"), body, truncated }, failure: null };
    }
  } catch (error) {
    if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
      return failed(`timeout: no complete answer within ${limits.timeoutMs / 1000} s`, { kind: "timeout", headers });
    }
    // A body cut off mid-way (the connection lost after the answer began) is the network's too: `connection`, tried again.
    // The runtime's message adds an internal reference id ("internal error; reference = …") that helps no reader
    // and differs on every attempt: it is left out, so the same failure reads the same every time.
    const message = (error instanceof Error ? error.message : String(error)).replace(/;?\s*reference\s*=\s*\S+/gi, "").trim();
    // workerd throws the same "internal error" for a host name that does not resolve as for a failed TLS handshake
    // (the cause is only in its own log), so a name that does not resolve cannot be told from a connection failure:
    // both are `connection`, never `dead` (a page that may be live is not called made up).
    return failed(`connection: the name did not resolve, or the connection or TLS failed (${message.slice(0, 120)})`, { kind: "connection" });
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
