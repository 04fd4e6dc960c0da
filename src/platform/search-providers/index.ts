import type { SearchProvider } from "../../domain/sessions/search";
import { braveProvider } from "./brave";
import type { ProviderOptions } from "./http";
import { searxngProvider } from "./searxng";
import { tavilyProvider } from "./tavily";

export interface SearchProviderSecrets {
  BRAVE_API_KEY?: string;
  TAVILY_API_KEY?: string;
  SEARXNG_URL?: string;
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
  if (secrets.SEARXNG_URL && /^https?:\/\//.test(secrets.SEARXNG_URL)) providers.push(searxngProvider(secrets.SEARXNG_URL, options));
  return providers;
}
