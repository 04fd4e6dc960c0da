/**
 * The web addresses a deliverable's structured citations give (`citations[].url`), against the plan's ledger: a URL
 * no source has is a page nobody recorded (as a link in the content is, deliverable-links.ts), and a citation pairing
 * a source's ref with another page's URL sends the reader to a page the check never stood behind. Same normalization
 * as the content's links (`sourceUrlKey`). Pure.
 */
import { LINK_LIMITS, shown, sourceUrlKey } from "./deliverable-links";

/**
 * Mismatched citations a report lists and a problem names, at most. They share the room of the unlisted links
 * (LINK_LIMITS: 20 addresses listed, 10 named, unlisted ones first; a mismatch names two in a problem), with one
 * always named, so the two together keep an acknowledgement or an error readable.
 */
export const CITATION_URL_LIMITS = { reported: 10, named: 5 } as const;

const room = (left: number, most: number) => Math.min(most, Math.max(1, left));

export interface CitationAddress {
  ref?: string;
  url?: string;
}

/** A citation whose ref is a source of the ledger and whose url is another page. */
export interface MismatchedCitationUrl {
  ref: string;
  url: string;
  /** The URL the ledger's source has. */
  sourceUrl: string;
}

/**
 * The citations' URLs that are not the URL of any source (each once, as written, none whose key is in `alreadyNamed`:
 * the content's unlisted links, so one list names each page once), and the citations whose `E#` ref names a source
 * at another URL (each ref and page once). A citation without a url, or whose ref is not a source (unknown refs are
 * reported as such), is not compared.
 */
export function checkCitationUrls(
  citations: readonly CitationAddress[],
  sources: readonly { ref: string; url: string }[],
  alreadyNamed: readonly string[] = [],
): { unlisted: string[]; mismatched: MismatchedCitationUrl[] } {
  const listed = new Set(sources.flatMap((s) => sourceUrlKey(s.url) ?? []));
  const byRef = new Map(sources.map((s) => [s.ref, s.url]));
  const named = new Set(alreadyNamed.flatMap((url) => sourceUrlKey(url) ?? []));
  const unlisted: string[] = [];
  const mismatched: MismatchedCitationUrl[] = [];
  const pairs = new Set<string>();
  for (const citation of citations) {
    const key = citation.url ? sourceUrlKey(citation.url) : null;
    if (!citation.url || key === null) continue;
    if (!listed.has(key) && !named.has(key)) {
      named.add(key);
      unlisted.push(citation.url);
    }
    const sourceUrl = citation.ref ? byRef.get(citation.ref) : undefined;
    if (sourceUrl === undefined || sourceUrlKey(sourceUrl) === key || pairs.has(`${citation.ref} ${key}`)) continue;
    pairs.add(`${citation.ref} ${key}`);
    mismatched.push({ ref: citation.ref as string, url: citation.url, sourceUrl });
  }
  return { unlisted, mismatched };
}

/**
 * The mismatches a report lists beside `unlistedCount` unlisted links: the first ones, the citation's address clipped
 * (the ledger has the source's).
 */
export function reportedMismatches(mismatched: readonly MismatchedCitationUrl[], unlistedCount = 0): { ref: string; url: string }[] {
  const count = room(LINK_LIMITS.reported - Math.min(unlistedCount, LINK_LIMITS.reported), CITATION_URL_LIMITS.reported);
  return mismatched.slice(0, count).map((m) => ({ ref: m.ref, url: shown(m.url) }));
}

/**
 * The problem a strict check reports for citations pairing a source's ref with another page's URL, beside the problem
 * naming `unlistedCount` unlisted links, or null.
 */
export function mismatchedCitationUrlsProblem(mismatched: readonly MismatchedCitationUrl[], unlistedCount = 0): string | null {
  if (mismatched.length === 0) return null;
  const count = room(Math.floor((LINK_LIMITS.named - Math.min(unlistedCount, LINK_LIMITS.named)) / 2), CITATION_URL_LIMITS.named);
  const named = mismatched.slice(0, count).map((m) => `${m.ref} with ${shown(m.url)} (${m.ref} is ${shown(m.sourceUrl)})`);
  const more = mismatched.length > count ? `; and ${mismatched.length - count} more` : "";
  return `Citations pair a source's ref with another page's URL: ${named.join("; ")}${more}. Give each citation its source's URL, or the ref of the source at that URL.`;
}
