/**
 * An org's locale as stored: a BCP 47 language tag in its canonical form ("en-us" → "en-US"). One rule for every
 * face that sets it (REST and the dashboard through org-settings.ts, the operator CLI directly). Imports nothing,
 * so the CLI loads it in Node as it is.
 */
export const LOCALE_TAG_MAX_CHARS = 35;

/** The canonical tag, or null when the value is not a language tag (empty, too long, or not BCP 47). */
export function canonicalLocaleTag(value: string): string | null {
  if (value.length === 0 || value.length > LOCALE_TAG_MAX_CHARS) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}
