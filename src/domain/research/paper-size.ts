/**
 * The paper a printed deliverable (the PDF download) is laid out on, from the org's locale: US Letter where Letter is
 * the office standard (the United States and Canada, Mexico, the Philippines and most of Central and South America's
 * Letter countries), A4 everywhere else, and A4 when the org has set no locale or one that does not parse.
 * Pure: the download reads the org's locale and hands the paper to the browser.
 */
export const PAPER_SIZES = ["A4", "Letter"] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** Regions (ISO 3166-1 alpha-2) whose standard office paper is US Letter. */
const LETTER_REGIONS = new Set(["US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "CR", "PA", "DO", "PR", "SV", "NI", "BZ"]);

/**
 * A BCP 47 locale's region: the explicit one ("en-US", "es-419" has none), else the likely region of its language as
 * the runtime's ICU data gives it (`Intl.Locale.maximize`: "en" → US, "ja" → JP). Null for no locale or a malformed one.
 */
function regionOf(locale: string): string | null {
  try {
    const parsed = new Intl.Locale(locale);
    return parsed.region ?? parsed.maximize().region ?? null;
  } catch {
    return null;
  }
}

/** The paper for an org's locale (a BCP 47 tag such as "en-US", "fr-CA", "ja-JP"), or A4 when it has none. */
export function paperSizeFor(locale: string | null | undefined): PaperSize {
  if (!locale) return "A4";
  const region = regionOf(locale);
  return region !== null && LETTER_REGIONS.has(region.toUpperCase()) ? "Letter" : "A4";
}
