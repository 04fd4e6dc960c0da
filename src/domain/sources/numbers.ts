/**
 * The numbers a text states ("37 %", "2.4 million", "1998", "1,200", "−3", "3,5 %"), so a claim
 * whose numbers appear in none of the quotes it rests on can be flagged: a number is where a
 * paraphrase most often drifts from its source. Pure; static patterns only.
 *
 * Read as written: "," followed by groups of exactly three digits separates thousands ("1,200"),
 * otherwise it is a decimal comma ("3,5"); "." is a decimal point, unless it separates two or more
 * groups of three ("1.200.000"); a non-breaking or thin space may separate thousands ("12 300").
 * Numbers glued to letters are names, not quantities ("COVID-19", "H1N1", "E3", "CO2"). Numbers
 * written as English words ("forty percent", "two hundred and fifty") are read apart (spelledNumbers),
 * for a quote to state what a claim writes in digits.
 */

export interface StatedNumber {
  /** As written, scale and percent sign included. */
  text: string;
  /** Offsets into the text. */
  start: number;
  end: number;
  /** The value, scale applied ("2.4 million" → 2400000; "37 %" → 37). */
  value: number;
  percent: boolean;
  /** A whole number from 1000 to 2100 written without separators: probably a year. */
  year: boolean;
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  mn: 1e6,
  mln: 1e6,
  billion: 1e9,
  bn: 1e9,
  trillion: 1e12,
};

// sign, integer (thousands groups or plain digits), decimals, then a percent sign or word, or a scale word.
const NUMBER =
  /(?<![\p{L}\p{N}_.,])(?<![\p{L}\p{N}][-‐‑])([-−+]?)(\d{1,3}(?:,\d{3})+|\d{1,3}(?:\.\d{3}){2,}|\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+|\d+)(?:[.,](\d+))?(?:\s?(%|per\s?cent\b|percent\b|pct\b|percentage points?\b)|\s?(thousand|million|billion|trillion|mln|mn|bn)\b|(?![\p{L}\p{N}]|[.,]\d))/giu;

/** Every number `text` states, in order. */
export function extractNumbers(text: string): StatedNumber[] {
  const found: StatedNumber[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const [whole, sign = "", integer = "", decimals, percentWord, scaleWord] = match;
    const start = match.index ?? 0;
    const base = Number(`${integer.replace(/[,.\u00a0\u202f\u2009]/g, "")}${decimals !== undefined ? `.${decimals}` : ""}`);
    if (!Number.isFinite(base)) continue;
    const scale = scaleWord ? (SCALES[scaleWord.toLowerCase()] ?? 1) : 1;
    const value = (sign === "-" || sign === "−" ? -1 : 1) * base * scale;
    const plain = sign === "" && decimals === undefined && !percentWord && !scaleWord && /^\d{4}$/.test(integer);
    found.push({ text: whole, start, end: start + whole.length, value, percent: percentWord !== undefined, year: plain && base >= 1000 && base <= 2100 });
  }
  return found;
}

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const MULTIPLIERS: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/**
 * The numbers `text` writes as English words: a run of number words ("forty", "forty-two", "two hundred and fifty",
 * "3 million" is read by extractNumbers), a percentage when "percent" or "per cent" follows. Pure; one pass.
 */
export function spelledNumbers(text: string): { value: number; percent: boolean }[] {
  const words = text.toLowerCase().split(/[^a-z]+/).filter((word) => word !== "");
  const found: { value: number; percent: boolean }[] = [];
  let total = 0;
  let current = 0;
  let inNumber = false;
  const close = (percent: boolean) => {
    if (inNumber) found.push({ value: total + current, percent });
    total = 0;
    current = 0;
    inNumber = false;
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const unit = UNITS[word];
    const multiplier = MULTIPLIERS[word];
    if (unit !== undefined) {
      current += unit;
      inNumber = true;
    } else if (multiplier !== undefined && inNumber) {
      if (multiplier === 100) current *= 100;
      else {
        total += current * multiplier;
        current = 0;
      }
    } else if (word === "and" && inNumber && (UNITS[words[i + 1] ?? ""] !== undefined)) {
      // "two hundred and fifty"
    } else {
      close(word === "percent" || (word === "per" && words[i + 1] === "cent"));
    }
  }
  close(false);
  return found;
}

const sameValue = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** The numbers of `claim` that none of `quotes` states (same value; a percentage only matches a percentage). */
export function numbersMissingFromQuotes(claim: string, quotes: readonly string[]): StatedNumber[] {
  const quoted = quotes.flatMap((quote) => [...extractNumbers(quote), ...spelledNumbers(quote)]);
  return extractNumbers(claim).filter((number) => !quoted.some((q) => q.percent === number.percent && sameValue(q.value, number.value)));
}
