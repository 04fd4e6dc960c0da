import { describe, expect, it } from "vitest";
import type { SourceVerification, VerificationStatus } from "../sources/verification";
import { checkSourceIntegrity, sourceIntegrityProblem } from "./source-integrity";

const v = (status: VerificationStatus, passage: string | null = null): SourceVerification => ({
  status,
  reason: status === "unreachable" ? "timeout: no complete answer within 15 s" : null,
  score: status === "partial" ? 0.7 : status === "verified" ? 1 : null,
  passage,
  basis: "fetched",
  titleMismatch: null,
  snapshot: null,
  checkedAt: 1,
});

const ledger = {
  evidence: [
    { ref: "E1", verification: v("verified") },
    { ref: "E2", verification: v("not_found") },
    { ref: "E3", verification: v("partial", "the closest words") },
    { ref: "E4", verification: v("unreachable") },
    { ref: "E5", verification: v("pending") },
  ],
  claims: [
    { ref: "C1", evidenceRefs: ["E2", "E3"] },
    { ref: "C2", evidenceRefs: ["E1", "E2"] },
  ],
};

describe("source integrity", () => {
  it("names units and claims resting only on not_found or partial sources; one verified source carries them", () => {
    const content = "Alpha [E2].\n\n- Beta [E1, E2]\n- Gamma [C1]\n\nDelta [C2].";
    const result = checkSourceIntegrity(content, { refs: ["E1", "E2"], claims: ["C1", "C2"] }, ledger);
    expect(result.unsupported).toEqual([
      { where: 'paragraph 1 ("Alpha [E2].")', refs: ["E2"] },
      { where: 'list item 3 ("Gamma [C1]")', refs: ["E2", "E3"] },
      { where: "claim C1", refs: ["E2", "E3"] },
    ]);
    expect(result.notVerified).toEqual([
      { ref: "E2", status: "not_found", score: null, passage: null },
      { ref: "E3", status: "partial", score: 0.7, passage: "the closest words" },
    ]);
    expect(sourceIntegrityProblem(result)).toContain('paragraph 1 ("Alpha [E2].") on E2 (not_found)');
    expect(sourceIntegrityProblem(result)).not.toContain("the closest words"); // page text never enters the message
  });

  it("exempts Sources and UNVERIFIED text, lists pending and unchecked sources, and passes unreachable ones", () => {
    const content = "Known [E4].\n\nWaiting [E5].\n\nRegulation: UNVERIFIED [E2].\n\n## Sources\n- [E2] a page";
    const result = checkSourceIntegrity(content, { refs: ["E2", "E4", "E5"], claims: [] }, ledger);
    expect(result.unsupported).toEqual([]);
    expect(result.pending).toEqual(["E5"]);
    expect(result.unchecked).toEqual([{ ref: "E4", status: "unreachable", reason: "timeout: no complete answer within 15 s" }]);
    expect(sourceIntegrityProblem(result)).toBeNull();
  });

  it("counts a verdict on the assistant's text by its status, and names every such cited source", () => {
    const client = (status: VerificationStatus): SourceVerification => ({ ...v(status, status === "verified" ? "the words" : null), basis: "client_text", reason: "checked against text the assistant supplied" });
    const withClient = {
      evidence: [...ledger.evidence, { ref: "E6", verification: client("verified") }, { ref: "E7", verification: client("not_found") }],
      claims: ledger.claims,
    };
    const result = checkSourceIntegrity("Paywalled [E6].\n\nAlso paywalled [E7].", { refs: ["E6", "E7", "E1"], claims: [] }, withClient);
    expect(result.clientText).toEqual(["E6", "E7"]);
    expect(result.unsupported).toEqual([{ where: 'paragraph 2 ("Also paywalled [E7].")', refs: ["E7"] }]);
    expect(result.notVerified.map((p) => p.ref)).toEqual(["E7"]);
    // The refusal says whose text the quote was looked for in.
    expect(sourceIntegrityProblem(result)).toContain("on E7 (not_found, in the text the assistant supplied)");
    expect(checkSourceIntegrity("Fetched [E1].", { refs: ["E1"], claims: [] }, withClient).clientText).toEqual([]);
  });

  it("refuses a unit resting only on a dead page, naming it with its reason; a walled page passes and is named", () => {
    const dead = (reason: string): SourceVerification => ({ ...v("unreachable"), reason });
    const withDead = {
      evidence: [...ledger.evidence, { ref: "E8", verification: dead("dead: HTTP 404") }, { ref: "E9", verification: dead("blocked: HTTP 403 (a bot wall, paywall or rate limit)") }, { ref: "E10", verification: dead("HTTP error: 410") }],
      claims: [{ ref: "C3", evidenceRefs: ["E8", "E10"] }],
    };
    const content = "Made up [E8].\n\nWalled [E9].\n\nGone before the codes [E10].\n\nBoth [E8, E9].";
    const result = checkSourceIntegrity(content, { refs: ["E8", "E9", "E10"], claims: ["C3"] }, withDead);
    expect(result.unsupported).toEqual([
      { where: 'paragraph 1 ("Made up [E8].")', refs: ["E8"] },
      { where: 'paragraph 3 ("Gone before the codes [E10].")', refs: ["E10"] },
      { where: "claim C3", refs: ["E8", "E10"] },
    ]);
    expect(result.dead).toEqual([
      { ref: "E8", status: "unreachable", reason: "dead: HTTP 404" },
      { ref: "E10", status: "unreachable", reason: "HTTP error: 410" },
    ]);
    expect(result.unchecked).toEqual([{ ref: "E9", status: "unreachable", reason: "blocked: HTTP 403 (a bot wall, paywall or rate limit)" }]);
    const problem = sourceIntegrityProblem(result);
    expect(problem).toContain('paragraph 1 ("Made up [E8].") on E8 (unreachable: dead: HTTP 404)');
    expect(problem).toContain("E10 (unreachable: HTTP error: 410)");
    expect(problem).not.toContain("Walled");
  });

  it("reads the refs a unit cites through the given reader (links to sources cite them)", () => {
    const refsIn = (text: string) => (text.includes("https://gone.example/") ? ["E2"] : []);
    const result = checkSourceIntegrity("Claimed ([page](https://gone.example/)).", { refs: ["E2"], claims: [] }, ledger, refsIn);
    expect(result.unsupported).toEqual([{ where: 'paragraph 1 ("Claimed ([page](https://gone.example/)).")', refs: ["E2"] }]);
  });
});
