import { describe, expect, it } from "vitest";
import { changedSourcesOf, failedSourcesOf, needsReverification, provenanceOf, REUSE_FRESHNESS_DAYS, reuseRefusal } from "./claim-reuse";
import type { Claim, Verdict } from "./ledger";

const DAY = 86_400_000;
const verdict = (v: Verdict["verdict"], createdAt: number, kind: Verdict["kind"] = "reviewer"): Verdict => ({ kind, judge: kind, shard: null, verdict: v, reasoning: null, confidence: 0.8, createdAt });
const claim = (verdicts: Verdict[], sourceChecks: Claim["sourceChecks"] = [{ ref: "E2", status: "verified", reason: null }]): Claim => ({
  claimId: "clm_1",
  ref: "C4",
  planId: "plan_source",
  subtopic: "Cost",
  text: "Cells cost less",
  evidenceRefs: ["E2"],
  workerIds: [],
  confidence: 0.7,
  highStakes: false,
  createdAt: 1_000,
  verdicts,
  reusedFrom: null,
  sourceChecks,
});

describe("claim reuse", () => {
  it("copies only grounded claims of another plan", () => {
    expect(reuseRefusal(claim([verdict("SUPPORTED", 2_000)]), "plan_target")).toBeNull();
    expect(reuseRefusal(claim([verdict("SUPPORTED", 2_000), verdict("DOWNGRADE", 3_000, "critic")]), "plan_target")).toBeNull();
    expect(reuseRefusal(claim([verdict("OVERSTATED", 2_000)]), "plan_target")).toContain("OVERSTATED, not grounded");
    expect(reuseRefusal(claim([]), "plan_target")).toContain("PENDING_REVIEW");
    expect(reuseRefusal(claim([verdict("SUPPORTED", 2_000)]), "plan_source")).toContain("already in this plan's ledger");
  });

  it("keeps where the copy came from, judged at its newest verdict, and flags it for re-verification once older than the window", () => {
    const from = provenanceOf(claim([verdict("SUPPORTED", 2_000), verdict("SURVIVES", 5_000, "critic")]), 9_000);
    expect(from).toEqual({ planId: "plan_source", claimId: "clm_1", ref: "C4", status: "SURVIVES", judgedAt: 5_000, reusedAt: 9_000 });
    expect(needsReverification(from, 5_000 + REUSE_FRESHNESS_DAYS * DAY)).toBe(false);
    expect(needsReverification(from, 5_001 + REUSE_FRESHNESS_DAYS * DAY)).toBe(true);
  });

  it("flags a copy for re-verification, however fresh, when a source it rests on was found changed since verified", () => {
    const fresh = claim([verdict("SUPPORTED", 2_000)]);
    const from = provenanceOf(fresh, 9_000, changedSourcesOf({ evidenceRefs: ["E5", "E6"] }, new Set(["E6", "E9"])));
    expect(from.sourcesChanged).toEqual(["E6"]);
    expect(needsReverification(from, 9_000)).toBe(true);
    expect(provenanceOf(fresh, 9_000, [])).not.toHaveProperty("sourcesChanged");
    expect(needsReverification(provenanceOf(fresh, 9_000, []), 9_000)).toBe(false);
  });
});

describe("reusing a claim whose sources failed their check", () => {
  it("refuses a claim every source of which failed, naming each with its status", () => {
    const failed = claim([verdict("SUPPORTED", 2_000)], [
      { ref: "E2", status: "not_found", reason: null },
      { ref: "E3", status: "unreachable", reason: "dead: HTTP 404" },
    ]);
    const refusal = reuseRefusal(failed, "plan_target");
    expect(refusal).toContain("C4 of its plan is not grounded");
    expect(refusal).toContain("E2 (not_found), E3 (unreachable: dead: HTTP 404)");
  });

  it("refuses one whose sources are still being checked, saying so; one source that holds is enough", () => {
    expect(reuseRefusal(claim([verdict("SUPPORTED", 2_000)], [{ ref: "E2", status: "pending", reason: null }]), "plan_target")).toContain("still checking its sources (E2 (pending))");
    const walled = claim([verdict("SUPPORTED", 2_000)], [{ ref: "E2", status: "partial", reason: null }, { ref: "E5", status: "unreachable", reason: "walled: HTTP 403" }]);
    expect(reuseRefusal(walled, "plan_target")).toBeNull();
    expect(failedSourcesOf(walled)).toEqual(["E2"]);
  });
});
