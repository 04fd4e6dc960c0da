import { describe, expect, it } from "vitest";
import { announcement, citedSourceNumbers, compareWithDelivery, countSources, RECHECK_LIMITS, recheckBatchSize, sourceChangeMark } from "./recheck";
import { VERIFICATION_STATUSES } from "./verification";

describe("compareWithDelivery", () => {
  it("calls a source verified at delivery changed when the quote is no longer on the page, gone when the page is unreachable", () => {
    expect(compareWithDelivery("verified", "not_found")).toBe("changed");
    expect(compareWithDelivery("verified", "partial")).toBe("changed");
    expect(compareWithDelivery("verified", "unreachable")).toBe("gone");
    expect(compareWithDelivery("verified", "verified")).toBe("verified");
  });

  it("never calls a source changed or gone that was not verified at delivery", () => {
    for (const delivered of [...VERIFICATION_STATUSES.filter((s) => s !== "verified"), null]) {
      for (const current of [...VERIFICATION_STATUSES, null]) {
        const state = compareWithDelivery(delivered, current);
        expect(state, `${delivered} → ${current}`).toBe(current === "verified" ? "verified" : "unverified");
      }
    }
  });

  it("counts a verified source that can no longer be read (unchecked, pending) as unverified", () => {
    expect(compareWithDelivery("verified", "unchecked")).toBe("unverified");
    expect(compareWithDelivery("verified", "pending")).toBe("unverified");
    expect(compareWithDelivery("verified", null)).toBe("unverified");
  });
});

describe("countSources", () => {
  it("counts each state and the total", () => {
    expect(countSources(["verified", "changed", "verified", "gone", "unverified"])).toEqual({ total: 5, verified: 2, changed: 1, gone: 1, unverified: 1 });
    expect(countSources([])).toEqual({ total: 0, verified: 0, changed: 0, gone: 0, unverified: 0 });
  });
});

describe("sourceChangeMark", () => {
  it("marks a verified source that no longer says the quote, or is unreachable; clears the mark when it is verified again", () => {
    expect(sourceChangeMark({ status: "verified", mark: null }, "not_found")).toBe("changed");
    expect(sourceChangeMark({ status: "verified", mark: null }, "partial")).toBe("changed");
    expect(sourceChangeMark({ status: "verified", mark: null }, "unreachable")).toBe("gone");
    expect(sourceChangeMark({ status: "not_found", mark: "changed" }, "verified")).toBeNull();
  });

  it("keeps a mark across re-checks that find the page still changed, and moves it between changed and gone", () => {
    expect(sourceChangeMark({ status: "not_found", mark: "changed" }, "not_found")).toBe("changed");
    expect(sourceChangeMark({ status: "not_found", mark: "changed" }, "unreachable")).toBe("gone");
    expect(sourceChangeMark({ status: "unreachable", mark: "gone" }, "partial")).toBe("changed");
    expect(sourceChangeMark({ status: "not_found", mark: "changed" }, "unchecked")).toBe("changed");
  });

  it("never marks a source that was never verified", () => {
    expect(sourceChangeMark({ status: "not_found", mark: null }, "not_found")).toBeNull();
    expect(sourceChangeMark({ status: "unreachable", mark: null }, "unreachable")).toBeNull();
    expect(sourceChangeMark({ status: null, mark: null }, "partial")).toBeNull();
    expect(sourceChangeMark({ status: "verified", mark: null }, "unchecked")).toBeNull();
  });
});

describe("announcement", () => {
  it("announces a change once: the next re-check that finds the same announces nothing", () => {
    const first = announcement("verified", null, "not_found");
    expect(first).toEqual({ announce: "changed", announced: "changed" });
    expect(announcement("verified", first.announced, "not_found")).toEqual({ announce: null, announced: "changed" });
    expect(announcement("verified", first.announced, "partial")).toEqual({ announce: null, announced: "changed" });
  });

  it("announces a move from changed to gone, and a change after the source was verified again", () => {
    expect(announcement("verified", "changed", "unreachable")).toEqual({ announce: "gone", announced: "gone" });
    const restored = announcement("verified", "changed", "verified");
    expect(restored).toEqual({ announce: null, announced: null });
    expect(announcement("verified", restored.announced, "not_found")).toEqual({ announce: "changed", announced: "changed" });
  });

  it("announces nothing for a source not verified at delivery, and keeps what was announced through an unreadable re-check", () => {
    expect(announcement("not_found", null, "not_found")).toEqual({ announce: null, announced: null });
    expect(announcement("pending", null, "unreachable")).toEqual({ announce: null, announced: null });
    expect(announcement("verified", "changed", "unchecked")).toEqual({ announce: null, announced: "changed" });
  });
});

describe("recheckBatchSize", () => {
  const limits = { perMinute: 300, perDay: 5_000 };

  it("queues the batch bound when the limits leave room, less when they leave less", () => {
    expect(recheckBatchSize({ lastMinute: 0, lastDay: 0 }, limits)).toEqual({ size: RECHECK_LIMITS.batch });
    expect(recheckBatchSize({ lastMinute: 290, lastDay: 0 }, limits)).toEqual({ size: 10 });
    expect(recheckBatchSize({ lastMinute: 0, lastDay: 4_996 }, limits)).toEqual({ size: 4 });
  });

  it("refuses with when to retry when the minute's or the day's checks are used up", () => {
    expect(recheckBatchSize({ lastMinute: 300, lastDay: 300 }, limits)).toEqual({ refusal: { message: expect.stringContaining("this minute"), retryAfterSeconds: 60 } });
    expect(recheckBatchSize({ lastMinute: 0, lastDay: 5_000 }, limits)).toEqual({ refusal: { message: expect.stringContaining("24 hours"), retryAfterSeconds: 3600 } });
  });
});

describe("citedSourceNumbers", () => {
  it("takes the sources cited directly and through cited claims, once each, known to the ledger only", () => {
    const ledger = { evidenceRefs: new Set(["E1", "E2", "E3", "E10"]), claims: [{ ref: "C1", evidenceRefs: ["E2", "E10"] }, { ref: "C2", evidenceRefs: ["E3"] }] };
    expect(citedSourceNumbers({ refs: ["E10", "E1", "E9"], claims: ["C1", "C7"] }, ledger)).toEqual([1, 2, 10]);
    expect(citedSourceNumbers({ refs: [], claims: [] }, ledger)).toEqual([]);
  });
});
