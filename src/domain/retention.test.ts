import { describe, expect, it } from "vitest";
import { RETENTION_DEFAULT_DAYS, retentionCutoff, retentionDays } from "./retention";

describe("retention", () => {
  it("takes a configured whole number of days, else the default", () => {
    expect(retentionDays("30", RETENTION_DEFAULT_DAYS.toolCalls)).toBe(30);
    for (const bad of [undefined, "", "0", "-5", "1.5", "ninety"]) expect(retentionDays(bad, 90), String(bad)).toBe(90);
  });

  it("cuts off whole days before now", () => {
    const now = Date.UTC(2026, 10, 24);
    expect(retentionCutoff(now, 90)).toBe(Date.UTC(2026, 7, 26));
  });
});
