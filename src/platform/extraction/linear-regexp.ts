import { RE2JS } from "re2js";

/**
 * Caller-supplied regular expressions (JSON Schema `pattern`,
 * `patternProperties`, `format: "regex"`) run on RE2 semantics through re2js:
 * matching time grows linearly with the input whatever the pattern, so
 * `^(a+)+$` over "aaaa…!" cannot stall the isolate as it does on the
 * JavaScript engine's backtracking matcher. RE2 has no lookaround and no
 * backreferences: a pattern using them is refused with a message that says so.
 */
export class LinearPatternError extends Error {
  override readonly name = "LinearPatternError";
}

const MAX_PATTERN_CHARS = 1_000;

/** What the JSON Schema library asks of a RegExp: construction with the `u` flag, and `test`. */
class LinearRegExp {
  readonly #compiled: RE2JS;
  constructor(pattern: unknown, flags?: unknown) {
    const source = String(pattern);
    if (flags !== undefined && flags !== "" && flags !== "u") throw new LinearPatternError(`Regular expression flags "${String(flags)}" are not supported.`);
    if (source.length > MAX_PATTERN_CHARS) throw new LinearPatternError(`Pattern too long: at most ${MAX_PATTERN_CHARS} characters.`);
    try {
      this.#compiled = RE2JS.compile(source);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new LinearPatternError(
        `Pattern ${JSON.stringify(source.slice(0, 80))} is not supported: ${reason}. Patterns run on a linear-time engine (RE2 syntax: no lookaround, no backreferences).`,
      );
    }
  }

  test(input: unknown): boolean {
    return this.#compiled.test(String(input));
  }
}

/**
 * Runs `validate` (synchronous, so nothing else in the isolate runs meanwhile)
 * with `new RegExp(…)` answered by the linear-time engine: the JSON Schema
 * library compiles caller patterns with the global constructor and offers no
 * hook of its own. Regular expression literals (the library's own formats,
 * Cairn's code) are untouched; the global is restored before returning.
 */
export function withLinearPatterns<T>(validate: () => T): T {
  const native = globalThis.RegExp;
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return validate();
  } finally {
    globalThis.RegExp = native;
  }
}
