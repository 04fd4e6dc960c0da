import { describe, expect, it } from "vitest";
import { sourcesStanding, STANDING_LIMITS } from "./ledger-standing";
import { PENDING, type SourceVerification } from "./verification";

const verdict = (status: SourceVerification["status"], extra: Partial<SourceVerification> = {}): SourceVerification => ({
  ...PENDING,
  status,
  basis: "fetched",
  checkedAt: 1,
  ...extra,
});

describe("where a plan's sources stand", () => {
  it("counts each status present and lists what cannot carry a paragraph, a partial match with its closest passage", () => {
    const standing = sourcesStanding([
      { ref: "E1", verification: verdict("verified", { score: 1, passage: "the quote" }) },
      { ref: "E2", verification: verdict("partial", { score: 0.82, passage: "cells reached 500 Wh/kg in the lab" }) },
      { ref: "E3", verification: verdict("not_found", { score: 0.2 }) },
      { ref: "E4", verification: PENDING },
      { ref: "E5", verification: verdict("verified", { score: 1 }) },
      { ref: "E6", verification: verdict("unreachable", { reason: "dead: HTTP 404" }) },
      { ref: "E7", verification: verdict("unreachable", { reason: "walled: HTTP 403" }) },
    ]);
    expect(standing).toEqual({
      counts: { verified: 2, partial: 1, not_found: 1, pending: 1, unreachable: 2 },
      needWork: [
        { ref: "E2", status: "partial", score: 0.82, closest: "cells reached 500 Wh/kg in the lab" },
        { ref: "E3", status: "not_found" },
        // A dead page cannot carry a paragraph; a walled one may be live.
        { ref: "E6", status: "unreachable", reason: "dead: HTTP 404" },
      ],
      moreNeedWork: 0,
    });
  });

  it("is bounded: the first sources needing work are listed, long passages clipped, the rest counted", () => {
    const many = Array.from({ length: STANDING_LIMITS.listed + 3 }, (_, i) => ({ ref: `E${i + 1}`, verification: verdict("partial", { score: 0.5, passage: "x".repeat(400) }) }));
    const standing = sourcesStanding(many);
    expect(standing.needWork).toHaveLength(STANDING_LIMITS.listed);
    expect(standing.needWork[0]?.closest).toHaveLength(STANDING_LIMITS.closestChars + 1);
    expect(standing.moreNeedWork).toBe(3);
    expect(sourcesStanding([])).toEqual({ counts: {}, needWork: [], moreNeedWork: 0 });
  });
});
