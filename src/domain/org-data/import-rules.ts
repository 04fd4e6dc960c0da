import { storedJsonIssue } from "../stored-input";

/**
 * The vocabulary of the import policy: what one stored cell may hold. An import
 * file is caller input, so each column an import writes names its rule here and
 * a cell that breaks it is refused with the column and the reason. Pure.
 */
export type CellRule =
  | { type: "text"; min: number; max: number; nullable: boolean; oneOf?: readonly string[]; pattern?: RegExp; shape?: string }
  | { type: "int"; min: number; max: number; nullable: boolean }
  | { type: "real"; min: number; max: number; nullable: boolean }
  | { type: "json"; maxBytes: number; nullable: boolean; check: (value: unknown) => string | null };

/** Epoch milliseconds up to the end of year 9999: later is no time a record was made. */
export const MAX_TIME = 253_402_300_799_999;
/** Versions of one record: every store adds one; a million is far past any real history. */
export const MAX_VERSION = 1_000_000;

const bytesOf = (text: string) => new TextEncoder().encode(text).byteLength;

export const text = (max: number, options: { min?: number; nullable?: boolean; pattern?: RegExp; shape?: string } = {}): CellRule => ({
  type: "text",
  min: options.min ?? 0,
  max,
  nullable: options.nullable ?? false,
  ...(options.pattern ? { pattern: options.pattern, shape: options.shape ?? "well-formed" } : {}),
});
export const oneOf = (values: readonly string[], nullable = false): CellRule => ({ type: "text", min: 1, max: 100, nullable, oneOf: values });
export const int = (min: number, max: number, nullable = false): CellRule => ({ type: "int", min, max, nullable });
export const real = (min: number, max: number, nullable = false): CellRule => ({ type: "real", min, max, nullable });
export const bool: CellRule = int(0, 1);
export const time = (nullable = false): CellRule => int(0, MAX_TIME, nullable);
export const version: CellRule = int(1, MAX_VERSION);

/** A Cairn id of one kind: the import always renews it, so it can never meet another org's. */
export const id = (prefix: string, nullable = false): CellRule =>
  text(64, { nullable, pattern: new RegExp(`^${prefix}_[0-9a-z]{25}$`), shape: `an id of the form ${prefix}_ and 25 letters or digits` });
/** Who acted: a user id (or "system" for the plan's own alarms). */
export const actor = (nullable = false): CellRule => text(64, { min: 1, nullable, pattern: /^[A-Za-z0-9_-]+$/, shape: "a user id" });
/** The OAuth client or API key acted through (client ids may be URLs: Client ID Metadata Documents). */
export const client: CellRule = text(2048, { nullable: true });
/** The org column: whatever it says, the import writes the importing org's id. */
export const orgColumn: CellRule = text(64);
/** An http(s) URL as the operations stored it (their URL check parses it; the text kept is what the caller sent). */
export const httpUrl = (nullable = false): CellRule => text(2000, { min: 1, nullable, pattern: /^https?:\/\/./i, shape: "an http(s) URL" });

/** JSON text, parsed and bounded like the operations bound stored JSON, then checked by `check`. */
export const json = (maxBytes: number, check: (value: unknown) => string | null = () => null, nullable = false): CellRule => ({ type: "json", maxBytes, nullable, check });

/**
 * Bytes JSON text of `chars` characters (UTF-16 units) can take: at most 6 each (an escaped control
 * character; 3 for most scripts). A coarse guard: the checks behind it count characters as the operations do.
 */
export const jsonBytes = (chars: number): number => chars * 6;

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A list of at most `max` strings of at most `chars` characters each (at least `min` items). */
export const stringList =
  (max: number, chars: number, min = 0) =>
  (value: unknown): string | null => {
    if (!Array.isArray(value)) return "must be a JSON list";
    if (value.length < min || value.length > max) return `must hold ${min ? `${min} to ` : "at most "}${max} items`;
    const bad = value.findIndex((item) => typeof item !== "string" || item.length > chars);
    return bad >= 0 ? `item ${bad} must be text of at most ${chars} characters` : null;
  };

export const objectValue = (value: unknown): string | null => (isRecord(value) ? null : "must be a JSON object");

/** Why `value` breaks `rule`, or null. */
export function cellIssue(rule: CellRule, value: unknown): string | null {
  if (value === null || value === undefined) return rule.nullable ? null : "is required";
  switch (rule.type) {
    case "text": {
      if (typeof value !== "string") return "must be text";
      if (rule.oneOf) return rule.oneOf.includes(value) ? null : `must be one of ${rule.oneOf.join(", ")}`;
      if (value.length < rule.min) return rule.min === 1 ? "must not be empty" : `must have at least ${rule.min} characters`;
      if (value.length > rule.max) return `must have at most ${rule.max} characters`;
      if (rule.pattern && !rule.pattern.test(value)) return `must be ${rule.shape}`;
      return null;
    }
    case "int":
    case "real": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (rule.type === "int" && !Number.isSafeInteger(value)) return "must be a whole number";
      return value < rule.min || value > rule.max ? `must be between ${rule.min} and ${rule.max}` : null;
    }
    case "json": {
      if (typeof value !== "string") return "must be JSON text";
      const bytes = bytesOf(value);
      if (bytes > rule.maxBytes) return `must be at most ${rule.maxBytes} bytes (is ${bytes})`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return "is not JSON";
      }
      const issue = storedJsonIssue(parsed);
      if (issue) return `${issue.path === "(input)" ? "" : `at ${issue.path}: `}${issue.message}`;
      return rule.check(parsed);
    }
  }
}
