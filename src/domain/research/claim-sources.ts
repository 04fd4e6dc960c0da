/**
 * What a claim's cited sources say about it, beyond the reviewers' verdicts: the numbers it states that none
 * of its quotes states (a number is where a paraphrase most often drifts), and how many independent sources
 * it rests on (syndicated copies, whose located passages are the same text, count once). Pure.
 */
import { normalizeText } from "../sources/normalize";
import { extractNumbers, type StatedNumber, spelledNumbers } from "../sources/numbers";
import type { SourceVerification } from "../sources/verification";

/** Numbers named per claim: a claim of 2,000 characters could state hundreds; the first few say enough. */
export const NUMBERS_NAMED_PER_CLAIM = 10;

/** What this module reads of a cited source. */
export interface CitedSource {
  ref: string;
  quote: string | null;
  verification: Pick<SourceVerification, "status" | "passage">;
}

/**
 * The numbers of the claim's text ("37 %", "2.4 million", "1998") that appear in none of the quotes recorded
 * for the sources it cites, as the claim writes them; empty when every number is quoted (or there is none).
 * A source recorded without a quote backs no number. At most NUMBERS_NAMED_PER_CLAIM, in the claim's order.
 */
export function numbersNotInQuotes(claimText: string, cited: readonly Pick<CitedSource, "quote">[]): string[] {
  const quoted = cited.map(numbersQuotedBy);
  const missing = extractNumbers(claimText).filter((number) => !quoted.some((numbers) => numbers.has(valueKey(number))));
  return [...new Set(missing.map((number) => number.text.trim()))].slice(0, NUMBERS_NAMED_PER_CLAIM);
}

/** A number's value as compared: the same value (to 12 significant digits, past float noise), a percentage only with a percentage. */
function valueKey(number: Pick<StatedNumber, "value" | "percent">): number | string {
  const value = Number.isInteger(number.value) ? number.value : Number(number.value.toPrecision(12));
  return number.percent ? `${value}%` : value;
}

// Each source is read once however many claims cite it: a ledger has up to 2,000 claims of 20 refs each.
const quotedNumbers = new WeakMap<object, ReadonlySet<number | string>>();
const located = new WeakMap<object, string | null>();

function numbersQuotedBy(source: Pick<CitedSource, "quote">): ReadonlySet<number | string> {
  let numbers = quotedNumbers.get(source);
  if (!numbers) {
    // Digits and English number words alike: a quote saying "forty percent" states the claim's "40 percent".
    numbers = new Set(source.quote ? [...extractNumbers(source.quote), ...spelledNumbers(source.quote)].map(valueKey) : []);
    quotedNumbers.set(source, numbers);
  }
  return numbers;
}

/** A located passage of a source (verified or partial), in the form two copies of one text share; null when none was located. */
function locatedText(source: CitedSource): string | null {
  if (located.has(source)) return located.get(source) ?? null;
  const { status, passage } = source.verification;
  const text = (status === "verified" || status === "partial") && passage ? normalizeText(passage.replace(/…$/, "")).replace(/\s+/g, " ").trim() : "";
  located.set(source, text || null);
  return text || null;
}

export interface Corroboration {
  /** The sources the claim rests on, syndicated copies counted once. */
  independentSources: number;
  /** Groups of cited sources whose located passages are the same text (only groups of two or more), in ref order. */
  sameText: string[][];
}

/**
 * How many independent sources a claim rests on: its cited sources that are in the ledger, where sources whose
 * located passages are the same normalized text count once (a wire story republished is one source). A source
 * with no located passage (not checked yet, not found, unreachable) counts on its own.
 */
export function corroboration(evidenceRefs: readonly string[], sources: ReadonlyMap<string, CitedSource>): Corroboration {
  const groups = new Map<string, string[]>();
  let alone = 0;
  for (const ref of new Set(evidenceRefs)) {
    const source = sources.get(ref);
    if (!source) continue;
    const text = locatedText(source);
    if (text === null) {
      alone++;
      continue;
    }
    groups.set(text, [...(groups.get(text) ?? []), ref]);
  }
  return { independentSources: alone + groups.size, sameText: [...groups.values()].filter((refs) => refs.length > 1) };
}

/** Both facts for one claim, from the ledger's sources by ref. */
export function claimSourceFacts(claim: { text: string; evidenceRefs: readonly string[] }, sources: ReadonlyMap<string, CitedSource>) {
  const cited = claim.evidenceRefs.flatMap((ref) => {
    const source = sources.get(ref);
    return source ? [source] : [];
  });
  return { numbersNotInQuotes: numbersNotInQuotes(claim.text, cited), ...corroboration(claim.evidenceRefs, sources) };
}

export type ClaimSourceFacts = ReturnType<typeof claimSourceFacts>;
