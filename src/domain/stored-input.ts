import type { ValidationIssue } from "./errors";

/**
 * What any caller-supplied input may look like before it reaches an operation,
 * and so before anything of it is stored. Operations keep open JSON in places
 * (skill-execution metadata, step results and reports, artifact content,
 * extracted records): those are bounded here, once, for every operation.
 *
 * Why a depth bound: SQLite's JSON functions refuse documents nested 1,000
 * levels or more ("malformed JSON"), so one such row used to fail every list
 * and search that reads a field of it, for the whole org. No research record
 * needs more than a few levels; 32 leaves ample room.
 */
export const STORED_JSON_LIMITS = {
  /** Nesting of objects and arrays, counting the input object itself as level 1. */
  maxDepth: 32,
  /** Objects, arrays and values in one input. Request bodies are at most 4 MiB, so this only stops degenerate shapes. */
  maxNodes: 100_000,
  /** Characters of one object key. */
  maxKeyChars: 200,
} as const;

/**
 * Keys refused anywhere in an input. `__proto__` is an own data key after
 * JSON.parse, but any later `Object.assign` or bracket write turns it into a
 * prototype change: no caller needs it, so it never enters storage.
 */
const FORBIDDEN_KEYS = new Set(["__proto__"]);

const pathOf = (segments: readonly (string | number)[]) => (segments.length ? segments.join(".") : "(input)");

/**
 * The first way `input` breaks the limits, as a validation issue naming where,
 * or null. Iterative, so a hostile depth cannot exhaust the stack here.
 */
export function storedJsonIssue(input: unknown): ValidationIssue | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (++nodes > STORED_JSON_LIMITS.maxNodes) {
      return { path: pathOf(path), message: `Too many values: at most ${STORED_JSON_LIMITS.maxNodes} in one call` };
    }
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= STORED_JSON_LIMITS.maxDepth) {
      return { path: pathOf(path), message: `Nested too deeply: at most ${STORED_JSON_LIMITS.maxDepth} levels of objects and arrays` };
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return { path: pathOf([...path, key]), message: `The key "${key}" is not allowed` };
      if (key.length > STORED_JSON_LIMITS.maxKeyChars) {
        return { path: pathOf([...path, key.slice(0, 40)]), message: `Key too long: at most ${STORED_JSON_LIMITS.maxKeyChars} characters` };
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return null;
}

/**
 * C0 controls other than tab, line feed and carriage return, DEL, and the C1
 * controls. They carry no meaning in research text, cut full-text snippets
 * (a NUL ends them) and confuse terminals and logs, so stored text drops them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same class, without the global flag's state, to test.
const HAS_CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const LONE_SURROGATE_TEST = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text as Cairn stores it: control characters removed and lone surrogates
 * (half of a UTF-16 pair, which no encoder can write as UTF-8) replaced by
 * U+FFFD. One policy for every text field of every operation, applied to the
 * validated input, so a caller's text is never refused for an invisible
 * character it copied from a web page.
 */
export function cleanText(text: string): string {
  const stripped = HAS_CONTROL_CHARACTER.test(text) ? text.replace(CONTROL_CHARACTERS, "") : text;
  return LONE_SURROGATE_TEST.test(stripped) ? stripped.replace(LONE_SURROGATE, "\uFFFD") : stripped;
}

/**
 * Every string in an input that passed `storedJsonIssue` (values and object keys) cleaned with
 * `cleanText`, before the operation validates it (so `min(1)` sees the cleaned text). Recursion is bounded
 * by `STORED_JSON_LIMITS.maxDepth`. Only plain objects and arrays (parsed JSON) are walked.
 */
export function cleanStrings<T>(value: T): T {
  if (typeof value === "string") return cleanText(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanStrings(item)) as T;
  if (typeof value !== "object" || value === null) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const cleaned: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) cleaned[cleanText(key)] = cleanStrings(item);
  return cleaned as T;
}
