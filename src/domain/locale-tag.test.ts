import { describe, expect, it } from "vitest";
import { canonicalLocaleTag, LOCALE_TAG_MAX_CHARS } from "./locale-tag";

describe("an org's locale tag", () => {
  it("is stored canonical, and anything that is not a BCP 47 tag of at most 35 characters is refused", () => {
    expect(canonicalLocaleTag("en-us")).toBe("en-US");
    expect(canonicalLocaleTag("ja-JP")).toBe("ja-JP");
    expect(canonicalLocaleTag("es-419")).toBe("es-419");
    for (const bad of ["", "not a locale", "none", "en_US!", "x".repeat(LOCALE_TAG_MAX_CHARS + 1)]) expect(canonicalLocaleTag(bad), bad).toBeNull();
  });
});
