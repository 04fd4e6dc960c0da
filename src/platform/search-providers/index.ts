import { checkOutboundUrl } from "../../domain/outbound-address";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import type { SearchProvider } from "../../domain/sessions/search";
import { braveProvider } from "./brave";
import type { ProviderOptions } from "./http";
import { searxngProvider } from "./searxng";
import { tavilyProvider } from "./tavily";

export interface SearchProviderSecrets {
  BRAVE_API_KEY?: string;
  TAVILY_API_KEY?: string;
  SEARXNG_URL?: string;
  CAIRN_ENV?: string;
}

/**
 * The web search providers configured as secrets, in order of preference
 * (Brave, Tavily, SearXNG). Empty when none is: sequential_search then searches
 * the org's own research index.
 */
export function configuredSearchProviders(secrets: SearchProviderSecrets, options: ProviderOptions = {}): SearchProvider[] {
  const providers: SearchProvider[] = [];
  if (secrets.BRAVE_API_KEY) providers.push(braveProvider(secrets.BRAVE_API_KEY, options));
  if (secrets.TAVILY_API_KEY) providers.push(tavilyProvider(secrets.TAVILY_API_KEY, options));
  if (secrets.SEARXNG_URL) {
    // The same guard and gate as every URL Cairn fetches: https, a public address (a local instance over http only
    // where CAIRN_ENV is exactly "development").
    const verdict = checkOutboundUrl(secrets.SEARXNG_URL, outboundPolicyFor(secrets.CAIRN_ENV, "search_provider"));
    if (verdict.allowed) providers.push(searxngProvider(secrets.SEARXNG_URL, options));
    else console.error(JSON.stringify({ level: "warn", message: "SEARXNG_URL ignored", reason: verdict.reason }));
  }
  return providers;
}
