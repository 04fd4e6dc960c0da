import { describe, expect, it } from "vitest";
import { paperSizeFor } from "./paper-size";

describe("paperSizeFor", () => {
  it("gives US Letter where it is the office standard", () => {
    for (const locale of ["en-US", "es-US", "fr-CA", "en-CA", "es-MX", "en-PH", "es-CL", "es-CO"]) expect(paperSizeFor(locale), locale).toBe("Letter");
  });

  it("gives A4 everywhere else", () => {
    for (const locale of ["en-GB", "de-DE", "fr-FR", "ja-JP", "zh-CN", "ko-KR", "ar-EG", "he-IL", "ru-RU", "es-ES", "pt-BR", "en-AU", "el-GR"]) {
      expect(paperSizeFor(locale), locale).toBe("A4");
    }
  });

  it("reads a language alone by its likely region", () => {
    expect(paperSizeFor("en")).toBe("Letter");
    expect(paperSizeFor("ja")).toBe("A4");
    expect(paperSizeFor("de")).toBe("A4");
  });

  it("gives A4 for no locale or one that does not parse", () => {
    for (const locale of [null, undefined, "", "not a locale", "x"]) expect(paperSizeFor(locale), String(locale)).toBe("A4");
  });
});
