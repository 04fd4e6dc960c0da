/**
 * Citation integrity down to the paragraph: under a strict citation policy,
 * every paragraph and list item of a deliverable must cite at least one [E#]
 * (or link a source by its URL, citation-links.ts) that the ledger grounds. Exempt: text under a heading that is not factual by
 * its nature (method, limitations, unverified, sources, references), a
 * paragraph that marks itself UNVERIFIED, headings, rules, tables and code.
 * Pure: markdown read line by line, no parser needed for this much.
 */

/** Headings whose sections state no findings (matched as words in the heading, any case). */
export const NON_FACTUAL_HEADINGS = ["method", "methodology", "methods", "limitations", "limitation", "unverified", "sources", "references", "bibliography", "appendix"];

export interface UncitedUnit {
  /** 1-based position among the body's paragraphs and list items. */
  position: number;
  kind: "paragraph" | "list item";
  /** The first words, enough to find it. */
  start: string;
}

const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/;
const FENCE = /^\s{0,3}(```|~~~)/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const TABLE = /^\s*\|/;
const EVIDENCE = /\[(E\d{1,5}(?:\s*[,;]\s*E\d{1,5})*)\]/g;

function isNonFactual(heading: string): boolean {
  const words = heading.toLowerCase().split(/[^a-z]+/);
  return NON_FACTUAL_HEADINGS.some((word) => words.includes(word));
}

function firstWords(text: string): string {
  const words = text.replace(LIST_ITEM, "").replace(/\s+/g, " ").trim().split(" ");
  return words.length > 8 ? `${words.slice(0, 8).join(" ")}…` : words.join(" ");
}


export interface BodyUnit {
  position: number;
  kind: UncitedUnit["kind"];
  text: string;
  /** Under a heading that states no findings (method, limitations, sources…), or marked UNVERIFIED. */
  exempt: boolean;
}

/** The paragraphs and list items of `content`, in order (headings, rules, tables and code left out). */
export function bodyUnits(content: string): BodyUnit[] {
  const units: Omit<BodyUnit, "position">[] = [];
  let exemptSection = false;
  let inFence = false;
  let current: { kind: UncitedUnit["kind"]; lines: string[] } | null = null;
  const close = () => {
    if (current) units.push({ kind: current.kind, text: current.lines.join("\n"), exempt: exemptSection });
    current = null;
  };
  for (const line of content.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      close();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      close();
      exemptSection = isNonFactual(heading[1] ?? "");
      continue;
    }
    if (!line.trim() || RULE.test(line) || TABLE.test(line)) {
      close();
      continue;
    }
    if (LIST_ITEM.test(line)) {
      close();
      current = { kind: "list item", lines: [line] };
      continue;
    }
    if (current) current.lines.push(line);
    else current = { kind: "paragraph", lines: [line] };
  }
  close();
  // Link reference definitions (`[1]: https://…`) render as nothing: they state no finding.
  return units.map((unit, i) => ({ ...unit, position: i + 1, exempt: unit.exempt || /\bUNVERIFIED\b/.test(unit.text) || onlyDefinitions(unit.text) }));
}

/** The first words of a unit, enough to find it. */
export const unitStart = (unit: BodyUnit): string => firstWords(unit.text);

/** The evidence refs ([E3], [E1, E4]) a unit cites. */
export function evidenceCitedIn(text: string): string[] {
  return [...text.matchAll(EVIDENCE)].flatMap((match) => (match[1] ?? "").split(/\s*[,;]\s*/));
}

/** Whether a paragraph holds nothing but link reference definitions (`[1]: https://…`). */
const onlyDefinitions = (text: string): boolean => text.split(/\r?\n/).every((line) => !line.trim() || /^ {0,3}\[[^\]\n]{1,999}\]:[ \t]*\S/.test(line));

/**
 * The paragraphs and list items of `content` that cite no grounded evidence and are not exempt. `refsIn` reads the
 * refs a unit cites (`[E#]` only by default; citation-links.ts adds links to ledger sources).
 */
export function uncitedUnits(content: string, grounded: ReadonlySet<string>, refsIn: (text: string) => string[] = evidenceCitedIn): UncitedUnit[] {
  return bodyUnits(content).flatMap((unit) =>
    unit.exempt || refsIn(unit.text).some((ref) => grounded.has(ref)) ? [] : [{ position: unit.position, kind: unit.kind, start: firstWords(unit.text) }],
  );
}
