/**
 * Does a page's title match the title an assistant gave for it? A real id or URL pointing at an
 * unrelated page is a known failure of cited sources, and the title is the cheapest check of it.
 *
 * Both titles are normalized as quotes are (case, quotation marks, dashes, Unicode forms) and
 * compared as sets of words (Dice coefficient). Pages append their site's name ("… | Reuters",
 * "… - Wikipedia") and claimed titles often drop a subtitle, so the page title is also compared
 * segment by segment (split at " | ", " - ", " · ", " :: ") and before its first colon; the best
 * comparison counts. High from 0.7, medium from 0.4 (the thresholds web-researcher-mcp uses).
 */
import { normalizeText, tokenize } from "./normalize";

export const TITLE_MATCH_THRESHOLDS = { high: 0.7, medium: 0.4 } as const;

export interface TitleMatch {
  score: number;
  level: "high" | "medium" | "low";
}

const wordSet = (text: string) => new Set(tokenize(normalizeText(text)).map((token) => token.text));

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return (2 * shared) / (a.size + b.size);
}

const SEPARATORS = [" | ", " - ", " – ", " — ", " · ", " • ", " :: "];

/** The page title whole, each segment between site separators, and the part before the first colon. */
function titleVariants(title: string): string[] {
  let segments = [title];
  for (const separator of SEPARATORS) segments = segments.flatMap((segment) => segment.split(separator));
  const colon = title.indexOf(":");
  return [title, ...segments, ...(colon > 0 ? [title.slice(0, colon)] : [])];
}

export function matchTitle(pageTitle: string, claimedTitle: string): TitleMatch {
  const claimed = wordSet(claimedTitle.slice(0, 1_000));
  const score = Math.max(0, ...titleVariants(pageTitle.slice(0, 1_000)).map((variant) => dice(wordSet(variant), claimed)));
  const rounded = Math.round(score * 1000) / 1000;
  return { score: rounded, level: score >= TITLE_MATCH_THRESHOLDS.high ? "high" : score >= TITLE_MATCH_THRESHOLDS.medium ? "medium" : "low" };
}
