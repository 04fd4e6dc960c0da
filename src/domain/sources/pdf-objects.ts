/**
 * Just enough of PDF's object syntax to read a stream's dictionary as PDF.js's lexer reads it: comments,
 * literal and hex strings, names with #xx escapes, numbers, arrays, dictionaries and `N G R` references.
 * The text is the file as Latin-1 (one character per byte).
 */

export type PdfValue = { name: string } | { ref: string } | number | PdfValue[] | Map<string, PdfValue> | null | { other: true };

const isWhite = (char: string) => char === " " || char === "\n" || char === "\r" || char === "\t" || char === "\f" || char === "\0";
const isDelimiter = (char: string) => "()<>[]{}/%".includes(char);

/** A reader of objects over `text`, never past `limit`. */
export class PdfObjectReader {
  at: number;
  constructor(
    private readonly text: string,
    start: number,
    private readonly limit: number,
  ) {
    this.at = start;
  }

  /** Moves past whitespace and comments. */
  skipSpace(): void {
    while (this.at < this.limit) {
      const char = this.text[this.at] as string;
      if (isWhite(char)) this.at++;
      else if (char === "%") {
        while (this.at < this.limit && this.text[this.at] !== "\n" && this.text[this.at] !== "\r") this.at++;
      } else return;
    }
  }

  /** The next token's characters (a keyword or number), without moving. */
  private word(): string {
    let end = this.at;
    while (end < this.limit && !isWhite(this.text[end] as string) && !isDelimiter(this.text[end] as string)) end++;
    return this.text.slice(this.at, end);
  }

  /** The next object, or undefined when the text ends or is not PDF syntax here. */
  value(depth = 0): PdfValue | undefined {
    this.skipSpace();
    if (this.at >= this.limit || depth > 64) return undefined;
    const char = this.text[this.at] as string;
    if (char === "/") return { name: this.name() };
    if (char === "(") return this.skipLiteral() ? { other: true } : undefined;
    if (char === "<" && this.text[this.at + 1] === "<") return this.dictionary(depth);
    if (char === "<") {
      const end = this.text.indexOf(">", this.at);
      if (end < 0 || end >= this.limit) return undefined;
      this.at = end + 1;
      return { other: true };
    }
    if (char === "[") {
      this.at++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipSpace();
        if (this.at >= this.limit) return undefined;
        if (this.text[this.at] === "]") {
          this.at++;
          return items;
        }
        const item = this.value(depth + 1);
        if (item === undefined) return undefined;
        items.push(item);
      }
    }
    const word = this.word();
    if (word === "") return undefined;
    this.at += word.length;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      // `N G R` is a reference: look ahead without consuming unless it is one.
      const saved = this.at;
      if (/^\d+$/.test(word)) {
        this.skipSpace();
        const generation = this.word();
        if (/^\d+$/.test(generation)) {
          this.at += generation.length;
          this.skipSpace();
          if (this.word() === "R") {
            this.at++;
            return { ref: `${Number(word)} ${Number(generation)}` };
          }
        }
        this.at = saved;
      }
      return Number(word);
    }
    if (word === "null") return null;
    return { other: true };
  }

  private name(): string {
    this.at++;
    const start = this.at;
    while (this.at < this.limit && !isWhite(this.text[this.at] as string) && !isDelimiter(this.text[this.at] as string)) this.at++;
    return this.text.slice(start, this.at).replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }

  private skipLiteral(): boolean {
    let depth = 0;
    for (; this.at < this.limit; this.at++) {
      const char = this.text[this.at];
      if (char === "\\") this.at++;
      else if (char === "(") depth++;
      else if (char === ")" && --depth === 0) {
        this.at++;
        return true;
      }
    }
    return false;
  }

  private dictionary(depth: number): Map<string, PdfValue> | undefined {
    this.at += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      if (this.at >= this.limit) return undefined;
      if (this.text.startsWith(">>", this.at)) {
        this.at += 2;
        return entries;
      }
      if (this.text[this.at] !== "/") return undefined;
      const key = this.name();
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      entries.set(key, value);
    }
  }

  /** Whether the next token is `keyword`. */
  atKeyword(keyword: string): boolean {
    this.skipSpace();
    return this.word() === keyword;
  }
}

/** Where each object's definition ends its `N G obj` header: every header in order, and the last one of each object. */
export interface ObjectIndex {
  headers: number[];
  byRef: Map<string, number>;
  /** Values already read, by reference: each object is read once however often it is named. */
  values: Map<string, PdfValue | undefined>;
}

export function indexObjects(text: string): ObjectIndex {
  const headers: number[] = [];
  const byRef = new Map<string, number>();
  for (const match of text.matchAll(/(?<![0-9])(\d+)[\s\0]+(\d+)[\s\0]+obj(?![^\s\0()<>[\]{}/%])/g)) {
    const end = match.index + match[0].length;
    headers.push(end);
    // A later definition replaces an earlier one (an incremental update).
    byRef.set(`${Number(match[1])} ${Number(match[2])}`, end);
  }
  return { headers, byRef, values: new Map() };
}

/** The value of object `ref`, read from the file's text; undefined when it is not there (in an object stream, or missing). */
export function resolve(text: string, index: ObjectIndex, value: PdfValue, depth = 0): PdfValue | undefined {
  if (value === null || typeof value !== "object" || !("ref" in value)) return value;
  if (depth > 8) return undefined;
  if (!index.values.has(value.ref)) {
    const start = index.byRef.get(value.ref);
    index.values.set(value.ref, start === undefined ? undefined : new PdfObjectReader(text, start, Math.min(text.length, start + 64 * 1024)).value());
  }
  const read = index.values.get(value.ref);
  return read === undefined ? undefined : resolve(text, index, read, depth + 1);
}
