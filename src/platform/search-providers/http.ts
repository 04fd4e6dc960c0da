import { SearchProviderError } from "../../domain/sessions/search";

export type FetchFn = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface ProviderOptions {
  /** Injected in tests; the Worker's own fetch otherwise. */
  fetch?: FetchFn;
  /** Per request; default 5 s. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * Calls a provider's HTTP API with a deadline and reads its JSON. Every failure
 * becomes a `SearchProviderError` whose message we wrote (status code, timeout):
 * the provider's own response text never reaches the caller.
 */
export async function fetchJson(provider: string, request: Request, options: ProviderOptions): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  let response: Response;
  try {
    response = await doFetch(request, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new SearchProviderError(timedOut ? `${provider} did not answer within ${timeoutMs} ms` : `${provider} could not be reached`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SearchProviderError(`${provider} answered HTTP ${response.status}`);
  }
  try {
    const text = await response.text();
    if (text.length > MAX_BODY_BYTES) throw new Error("too large");
    return JSON.parse(text) as unknown;
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new SearchProviderError(timedOut ? `${provider} did not answer within ${timeoutMs} ms` : `${provider} sent a response that is not valid JSON`);
  }
}

/** Provider snippets may carry highlighting markup; results are plain text. */
export const plainText = (value: unknown): string =>
  typeof value === "string"
    ? value
        .replace(/<[^>]*>/g, "")
        .replace(/&(amp|lt|gt|quot|#39);/g, (_m, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[entity] ?? "")
        .replace(/\s+/g, " ")
        .trim()
    : "";

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const arrayAt = (value: unknown, ...path: string[]): unknown[] => {
  let node = value;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return Array.isArray(node) ? node : [];
};
