/**
 * Citing a source by its address: a link whose URL is a source in the plan's ledger cites that source exactly as
 * its `[E#]` does: `[title](url)` (the deep-research protocol's own style), a bare address, an autolink `<url>`, or a
 * reference link `[title][id]` / `[id][]` / `[id]` with its definition `[id]: url` anywhere in the deliverable. A link to
 * a page that is not a source cites nothing (and is named by the unlisted-links check). Two addresses are the same
 * source when their `sourceUrlKey`s are equal (as the unlisted-links check decides "is a ledger source"). Pure.
 */
import { linkedUrls, sourceUrlKey } from "./deliverable-links";
import { evidenceCitedIn } from "./paragraph-citations";

/** The evidence refs a piece of the deliverable cites, `[E#]` and links to sources alike, in order, each once. */
export type RefsCitedIn = (text: string) => string[];

/** `[id]: url` at the start of a line (up to three spaces in), as CommonMark defines a link reference definition. */
const DEFINITION = /^ {0,3}\[([^\]\n]{1,999})\]:[ \t]*<?([^\s>]+)>?/gm;
/** A reference link's label: `[text][label]`, `[label][]`, or a shortcut `[label]` (not followed by `(`, `[` or `:`). */
const REFERENCE = /\[([^\]\n]{1,999})\]\[([^\]\n]{0,999})\]|\[([^\]\n]{1,999})\](?![([:])/g;

const label = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * The key a link cites by: its source key (sourceUrlKey) with the fragment it gives, so `…/page#results` and `…/page`
 * name different entries when the ledger holds both.
 */
function exactKey(url: string): string | null {
  const key = sourceUrlKey(url);
  if (key === null) return null;
  const hash = url.indexOf("#");
  return hash < 0 ? key : `${key}${url.slice(hash)}`;
}

/**
 * How the deliverable `content` cites the ledger's `sources`: the refs a unit of it cites (`refsIn`), every ref its
 * links cite anywhere (`linkedRefs`: links outside code, as the unlisted-links check reads them), and the refs of any
 * addresses (`refsOf`: a structured citation's url).
 *
 * A link cites the ledger entries with exactly its URL (query and fragment as it gives them); only when none has
 * it, the entries at the same address without regard to the fragment. When several entries share that URL (a page
 * quoted twice), the link cites those among them in `preferred` (the grounded ones) if any is: a link says which page,
 * not which quote of it, so it rests on the quote that holds, and names the others only when none does.
 */
export function sourceCitations(
  content: string,
  sources: readonly { ref: string; url: string }[],
  mediaType = "markdown",
  preferred: ReadonlySet<string> = new Set(),
): { refsIn: RefsCitedIn; linkedRefs: string[]; refsOf: (urls: readonly string[]) => string[] } {
  const refsByKey = new Map<string, string[]>();
  const refsByExactKey = new Map<string, string[]>();
  for (const source of sources) {
    const key = sourceUrlKey(source.url);
    if (key !== null) refsByKey.set(key, [...(refsByKey.get(key) ?? []), source.ref]);
    const exact = exactKey(source.url);
    if (exact !== null) refsByExactKey.set(exact, [...(refsByExactKey.get(exact) ?? []), source.ref]);
  }
  const refsOfOne = (url: string) => {
    const refs = refsByExactKey.get(exactKey(url) ?? "") ?? refsByKey.get(sourceUrlKey(url) ?? "") ?? [];
    const held = refs.filter((ref) => preferred.has(ref));
    return held.length > 0 ? held : refs;
  };
  const refsOf = (urls: readonly string[]) => urls.flatMap(refsOfOne);
  const definitions = new Map<string, string>();
  if (refsByKey.size > 0) {
    for (const match of content.matchAll(DEFINITION)) {
      const name = label(match[1] as string);
      if (!definitions.has(name)) definitions.set(name, match[2] as string);
    }
  }
  const referenced = (text: string) =>
    definitions.size === 0
      ? []
      : [...text.matchAll(REFERENCE)].flatMap((m) => {
          const name = m[2] !== undefined ? (m[2].trim() ? m[2] : (m[1] as string)) : (m[3] as string);
          const url = definitions.get(label(name));
          return url ? [url] : [];
        });
  const refsIn: RefsCitedIn = (text) => {
    const linked = refsByKey.size === 0 ? [] : refsOf([...linkedUrls(text), ...referenced(text)]);
    return [...new Set([...evidenceCitedIn(text), ...linked])];
  };
  return { refsIn, linkedRefs: [...new Set(refsOf(linkedUrls(content, mediaType)))], refsOf };
}
