import { describe, expect, it } from "vitest";
import { PENDING, type VerificationStatus } from "../sources/verification";
import { type Claim, checkCitations, citedRefsIn, claimOutcome, normalizeClaim, summarizeSubtopics, type Verdict } from "./ledger";

const verdict = (kind: Verdict["kind"], judge: string, v: Verdict["verdict"], confidence: number | null = null): Verdict => ({
  kind,
  judge,
  shard: kind === "reviewer" ? 1 : null,
  verdict: v,
  reasoning: kind === "critic" ? "because" : null,
  confidence,
  createdAt: 0,
});

const PENDING_OF = (status: VerificationStatus) => ({ ...PENDING, status });

let n = 0;
const claim = (subtopic: string, text: string, evidenceRefs: string[], verdicts: Verdict[] = [], confidence: number | null = 0.7): Claim => {
  n += 1;
  return { claimId: `clm_${n}`, ref: `C${n}`, planId: "plan_1", subtopic, text, evidenceRefs, workerIds: ["worker-1"], confidence, highStakes: false, createdAt: 0, verdicts, reusedFrom: null, sourceChecks: evidenceRefs.map((ref) => ({ ref, status: "verified", reason: null })) };
};

describe("claimOutcome", () => {
  it("is pending until a reviewer judged the claim, keeping the worker's confidence", () => {
    expect(claimOutcome(claim("a", "x", ["E1"]))).toEqual({ status: "PENDING_REVIEW", reviewerVerdict: null, criticVerdict: null, grounded: false, sources: "holds", finalConfidence: 0.7 });
  });

  it("takes the worst reviewer verdict and grounds only claims every reviewer SUPPORTED", () => {
    const both = claimOutcome(claim("a", "x", ["E1"], [verdict("reviewer", "r1", "SUPPORTED", 0.9), verdict("reviewer", "r2", "OVERSTATED", 0.5)]));
    expect(both).toMatchObject({ status: "OVERSTATED", grounded: false, finalConfidence: 0.5 });
    const supported = claimOutcome(claim("a", "x", ["E1"], [verdict("reviewer", "r1", "SUPPORTED", 0.8)]));
    expect(supported).toMatchObject({ status: "SUPPORTED", grounded: true, finalConfidence: 0.8 });
    const contradicted = claimOutcome(claim("a", "x", ["E1"], [verdict("reviewer", "r1", "UNSUPPORTED"), verdict("reviewer", "r2", "CONTRADICTED")]));
    expect(contradicted.status).toBe("CONTRADICTED");
  });

  it("lets the critic's verdict and confidence decide where it ran", () => {
    const reviewed = [verdict("reviewer", "r1", "SUPPORTED", 0.9)];
    expect(claimOutcome(claim("a", "x", ["E1"], [...reviewed, verdict("critic", "c", "SURVIVES", 0.85)]))).toMatchObject({ status: "SURVIVES", grounded: true, finalConfidence: 0.85 });
    expect(claimOutcome(claim("a", "x", ["E1"], [...reviewed, verdict("critic", "c", "DOWNGRADE", 0.4)]))).toMatchObject({ status: "DOWNGRADE", grounded: true, finalConfidence: 0.4 });
    expect(claimOutcome(claim("a", "x", ["E1"], [...reviewed, verdict("critic", "c", "REJECT", 0.1)]))).toMatchObject({ status: "REJECT", grounded: false });
    // A critic without a confidence falls back to the reviewers'.
    expect(claimOutcome(claim("a", "x", ["E1"], [...reviewed, verdict("critic", "c", "SURVIVES")])).finalConfidence).toBe(0.9);
  });

  it("ignores a critic on a claim the reviewers did not support", () => {
    const outcome = claimOutcome(claim("a", "x", ["E1"], [verdict("reviewer", "r1", "UNSUPPORTED"), verdict("critic", "c", "SURVIVES")]));
    expect(outcome).toMatchObject({ status: "UNSUPPORTED", grounded: false });
  });
});

describe("normalizeClaim", () => {
  it("merges claims differing only in case, spacing and punctuation", () => {
    expect(normalizeClaim("  The Market grew 12%, in 2025. ")).toBe(normalizeClaim("the market grew 12 in 2025"));
    expect(normalizeClaim("A grew")).not.toBe(normalizeClaim("A shrank"));
  });
});

describe("citedRefsIn", () => {
  it("finds single and grouped refs, once each, and ignores look-alikes", () => {
    expect(citedRefsIn("Growth [E2] and costs [E1, E3]; see [C4] and [E2]. Not E9 nor [X1] nor [E]")).toEqual({ evidence: ["E2", "E1", "E3"], claims: ["C4"] });
  });
});

describe("summarizeSubtopics", () => {
  it("marks subtopics without a grounded claim UNVERIFIED, declared or not", () => {
    const grounded = claim("Pricing", "p", ["E1"], [verdict("reviewer", "r1", "SUPPORTED")]);
    const rejected = claim("Adoption", "a", ["E2"], [verdict("reviewer", "r1", "UNSUPPORTED")]);
    const summary = summarizeSubtopics(["Pricing", "Regulation"], [{ subtopic: "pricing" }, { subtopic: "Adoption" }], [grounded, rejected]);
    expect(summary).toEqual([
      { subtopic: "Pricing", status: "GROUNDED", evidence: 1, claims: 1, groundedClaims: 1 },
      { subtopic: "Regulation", status: "UNVERIFIED", evidence: 0, claims: 0, groundedClaims: 0 },
      { subtopic: "Adoption", status: "UNVERIFIED", evidence: 1, claims: 1, groundedClaims: 0 },
    ]);
  });
});

describe("checkCitations", () => {
  const supported = claim("Pricing", "Prices fell by a third since 2023", ["E1"], [verdict("reviewer", "r1", "SUPPORTED")]);
  const rejected = claim("Pricing", "Prices will halve again next year for sure", ["E2"], [verdict("reviewer", "r2", "SUPPORTED"), verdict("critic", "c", "REJECT")]);
  const downgraded = claim("Pricing", "Discounts are common", ["E3"], [verdict("reviewer", "r1", "SUPPORTED"), verdict("critic", "c", "DOWNGRADE")]);
  const ledger = () => {
    const claims = [supported, rejected, downgraded];
    const evidence = [{ ref: "E1" }, { ref: "E2" }, { ref: "E3" }];
    return { evidence, claims, subtopics: summarizeSubtopics(["Pricing", "Regulation"], [], claims) };
  };

  it("passes a deliverable citing grounded evidence and marking unverified subtopics", () => {
    const report = checkCitations("strict", { content: "Prices fell by a third [E1]. Discounts exist [E3].\n\nRegulation: UNVERIFIED — no source found.", citationRefs: [] }, ledger());
    expect(report).toMatchObject({ passed: true, citedRefs: ["E1", "E3"], unverifiedSubtopics: ["Regulation"], downgradedClaimsCited: [downgraded.ref], problems: [] });
  });

  it("refuses links to pages that are not sources in the ledger, and passes links to those that are", () => {
    const { claims, subtopics } = ledger();
    const evidence = [{ ref: "E1", url: "https://stats.example/prices" }, { ref: "E2" }, { ref: "E3", url: "https://shop.example/discounts" }];
    const marked = "\n\nRegulation: UNVERIFIED — no source found.";
    const listed = checkCitations("strict", { content: `Prices fell by a third [E1] ([data](https://STATS.example/prices/)). Discounts exist [E3].${marked}`, citationRefs: [] }, { evidence, claims, subtopics });
    expect(listed).toMatchObject({ passed: true, unlistedLinks: [] });
    const content = `Prices fell by a third [E1], see https://made-up.example/source-1. Discounts exist [E3] (https://shop.example/discounts?page=2).${marked}`;
    const report = checkCitations("strict", { content, citationRefs: [] }, { evidence, claims, subtopics });
    expect(report.passed).toBe(false);
    expect(report.unlistedLinks).toEqual(["https://made-up.example/source-1", "https://shop.example/discounts?page=2"]);
    expect(report.problems).toEqual([expect.stringContaining("https://made-up.example/source-1, https://shop.example/discounts?page=2.")]);
  });

  it("checks citations' URLs with the content's links: an unlisted URL joins one list, a ref paired with another page is named", () => {
    const { claims, subtopics } = ledger();
    const evidence = [{ ref: "E1", url: "https://stats.example/prices" }, { ref: "E2" }, { ref: "E3", url: "https://shop.example/discounts" }];
    const content = "Prices fell by a third [E1], see https://made-up.example/a. Discounts exist [E3].\n\nRegulation: UNVERIFIED — no source found.";
    const citations = [
      { ref: "E1", title: "Stats", url: "http://stats.example/prices#t" },
      { title: "Made up", url: "https://made-up.example/a/" },
      { ref: "E3", title: "Fabricated", url: "https://made-up.example/b" },
      { ref: "E1", title: "Another source's page", url: "https://shop.example/discounts" },
    ];
    const deliverable = { content, citationRefs: ["E1", "E3"], citations };
    const report = checkCitations("strict", deliverable, { evidence, claims, subtopics });
    expect(report.passed).toBe(false);
    expect(report.unlistedLinks).toEqual(["https://made-up.example/a", "https://made-up.example/b"]);
    expect(report.mismatchedCitationUrls).toEqual([
      { ref: "E3", url: "https://made-up.example/b" },
      { ref: "E1", url: "https://shop.example/discounts" },
    ]);
    expect(report.problems).toEqual([
      expect.stringContaining("not sources in the plan's evidence ledger: https://made-up.example/a, https://made-up.example/b."),
      expect.stringContaining("E3 with https://made-up.example/b (E3 is https://shop.example/discounts); E1 with https://shop.example/discounts"),
    ]);
    // Under report the same findings are listed; citations that are the ledger's own pages pass.
    expect(checkCitations("report", deliverable, { evidence, claims, subtopics })).toMatchObject({ policy: "report", passed: false, unlistedLinks: report.unlistedLinks });
    const clean = { content: content.replace(", see https://made-up.example/a", ""), citationRefs: ["E1"], citations: [citations[0] as (typeof citations)[0]] };
    expect(checkCitations("strict", clean, { evidence, claims, subtopics })).toMatchObject({ passed: true, unlistedLinks: [], mismatchedCitationUrls: [] });
  });

  it("reads links by the deliverable's media type: in HTML and text every address counts, code or not", () => {
    const { claims, subtopics } = ledger();
    const evidence = [{ ref: "E1", url: "https://stats.example/prices?a=1&b=2" }, { ref: "E2" }, { ref: "E3" }];
    const html = '<p>Prices fell by a third [E1] (<a href="https://stats.example/prices?a=1&amp;b=2">data</a>).</p>\n\n    <pre>https://made-up.example/x</pre>\n<p>Regulation: UNVERIFIED</p>';
    expect(checkCitations("strict", { content: html, citationRefs: [], mediaType: "html" }, { evidence, claims, subtopics }).unlistedLinks).toEqual(["https://made-up.example/x"]);
    // Read as Markdown, the same indented line after a blank line is code.
    expect(checkCitations("strict", { content: html, citationRefs: [] }, { evidence, claims, subtopics }).unlistedLinks).not.toContain("https://made-up.example/x");
  });

  it("names every failure: unknown refs, ungrounded evidence, rejected claims repeated, unmarked subtopics", () => {
    const content = "Prices will halve again next year, for sure [E2]. Also [E9] and [C99]. Regulation is fine.";
    const report = checkCitations("strict", { content, citationRefs: ["E1"] }, ledger());
    expect(report.passed).toBe(false);
    expect(report.unknownRefs).toEqual(["E9", "C99"]);
    expect(report.ungroundedRefs).toEqual(["E2"]);
    expect(report.rejectedClaimsRepeated).toEqual([rejected.ref]);
    expect(report.unmarkedUnverifiedSubtopics).toEqual(["Regulation"]);
    // The one paragraph cites only ungrounded and unknown evidence.
    expect(report.uncitedParagraphs).toEqual([{ position: 1, kind: "paragraph", start: "Prices will halve again next year, for sure…" }]);
    expect(report.problems).toHaveLength(5);
  });

  it("requires a grounded citation in every factual paragraph and list item, and names the ones without", () => {
    const content = [
      "# Pricing",
      "Prices fell by a third since 2023 [E1].",
      "- Bulk buyers pay less",
      "- Discounts exist [E3]",
      "## Limitations",
      "Only public list prices were available.",
      "Regulation: UNVERIFIED.",
    ].join("\n\n");
    const strict = checkCitations("strict", { content, citationRefs: [] }, ledger());
    expect(strict.uncitedParagraphs).toEqual([{ position: 2, kind: "list item", start: "Bulk buyers pay less" }]);
    expect(strict.passed).toBe(false);
    expect(strict.problems.join(" ")).toContain('list item 2 ("Bulk buyers pay less")');
    // Non-strict stores the deliverable and reports the same list.
    expect(checkCitations("report", { content, citationRefs: [] }, ledger()).uncitedParagraphs).toEqual(strict.uncitedParagraphs);
  });

  it("names claims the deliverable rests on whose numbers none of their quotes states, without failing the check", () => {
    const quoted = claim("Pricing", "Prices fell by 31 % in 2023", ["E1"], [verdict("reviewer", "r1", "SUPPORTED")]);
    const drifted = claim("Pricing", "Prices fell by 37 % in 2023", ["E1", "E2"], [verdict("reviewer", "r1", "SUPPORTED")]);
    const uncited = claim("Pricing", "Rents rose 9 %", ["E3"], [verdict("reviewer", "r1", "SUPPORTED")]);
    const claims = [quoted, drifted, uncited];
    const evidence = [
      { ref: "E1", quote: "Prices fell by 31 % in 2023, the agency said." },
      { ref: "E2", quote: null },
      { ref: "E3", quote: "Nothing numeric here at all." },
    ];
    const report = checkCitations("strict", { content: "Prices fell [E1] [E2].\n\nRegulation: UNVERIFIED.", citationRefs: [] }, { evidence, claims, subtopics: summarizeSubtopics(["Pricing", "Regulation"], [], claims) });
    expect(report.numbersNotInQuotes).toEqual([{ claim: drifted.ref, numbers: ["37 %"] }]);
    expect(report.passed).toBe(true);
    // Citing the claim itself names it too.
    const direct = checkCitations("report", { content: `Rents [${uncited.ref}].`, citationRefs: [] }, { evidence, claims, subtopics: [] });
    expect(direct.numbersNotInQuotes).toEqual([{ claim: uncited.ref, numbers: ["9 %"] }]);
  });

  it("flags a claim judged OVERSTATED repeated as it was, but not one restated with its qualifier", () => {
    const overstated = claim("Pricing", "Solid-state cells already cost less than lithium-ion", ["E1"], [verdict("reviewer", "r1", "OVERSTATED")]);
    const withOverstated = () => {
      const claims = [supported, overstated];
      return { evidence: [{ ref: "E1" }], claims, subtopics: summarizeSubtopics(["Pricing"], [], claims) };
    };
    const repeated = checkCitations("strict", { content: "Solid-state cells already cost less than lithium-ion [E1].", citationRefs: [] }, withOverstated());
    expect(repeated.overstatedClaimsRepeated).toEqual([overstated.ref]);
    expect(repeated.passed).toBe(false);
    const qualified = checkCitations("strict", { content: "In some lab setups, solid-state cells may cost less than lithium-ion [E1].", citationRefs: [] }, withOverstated());
    expect(qualified.overstatedClaimsRepeated).toEqual([]);
  });

  it("refuses a deliverable that cites nothing when the ledger has grounded claims", () => {
    const report = checkCitations("report", { content: "Prices fell. Regulation: UNVERIFIED.", citationRefs: [] }, ledger());
    expect(report).toMatchObject({ policy: "report", passed: false });
    expect(report.problems[0]).toMatch(/cites no evidence/);
  });

  it("lets a grounded claim cited by its ref alone ([C1]) carry a paragraph; an ungrounded one does not", () => {
    const content = `Prices fell by a third [${supported.ref}].\n\nRegulation: UNVERIFIED — no source found.`;
    expect(checkCitations("strict", { content, citationRefs: [] }, ledger())).toMatchObject({ passed: true, uncitedParagraphs: [] });
    const ungrounded = checkCitations("strict", { content: `Prices will halve [${rejected.ref}].\n\nPrices fell [E1].\n\nRegulation: UNVERIFIED.`, citationRefs: [] }, ledger());
    expect(ungrounded.uncitedParagraphs).toEqual([{ position: 1, kind: "paragraph", start: expect.stringContaining("Prices will halve") }]);
  });

  it("checks claims cited by their ref", () => {
    const report = checkCitations("strict", { content: `As shown [${supported.ref}] and [${rejected.ref}]. Regulation: UNVERIFIED`, citationRefs: [] }, ledger());
    expect(report.ungroundedClaims).toEqual([rejected.ref]);
    expect(report.passed).toBe(false);
  });
});

describe("grounded: the reviewers' verdict and Cairn's check of the cited pages", () => {
  const supportedOn = (checks: Claim["sourceChecks"]) => ({ ...claim("a", "x", checks.map((c) => c.ref), [verdict("reviewer", "r1", "SUPPORTED")]), sourceChecks: checks });

  it("is not grounded when every cited source failed its check (not_found, partial, dead), whatever the reviewers said", () => {
    expect(claimOutcome(supportedOn([{ ref: "E1", status: "not_found", reason: null }]))).toMatchObject({ status: "SUPPORTED", grounded: false, sources: "failed" });
    expect(claimOutcome(supportedOn([{ ref: "E1", status: "partial", reason: null }, { ref: "E2", status: "unreachable", reason: "dead: HTTP 404" }]))).toMatchObject({ grounded: false, sources: "failed" });
    // One source whose check holds carries it: verified, or a page that may be live (walled).
    expect(claimOutcome(supportedOn([{ ref: "E1", status: "not_found", reason: null }, { ref: "E2", status: "verified", reason: null }]))).toMatchObject({ grounded: true, sources: "holds" });
    expect(claimOutcome(supportedOn([{ ref: "E1", status: "unreachable", reason: "walled: HTTP 403" }]))).toMatchObject({ grounded: true, sources: "holds" });
  });

  it("is not grounded yet while its only sources are pending: a pending source counts once checked", () => {
    expect(claimOutcome(supportedOn([{ ref: "E1", status: "pending", reason: null }, { ref: "E2", status: "not_found", reason: null }]))).toMatchObject({ grounded: false, sources: "pending" });
  });

  it("counts a subtopic grounded only on a claim whose sources hold; a deliverable's check waits for pending ones", () => {
    const failed = { ...supportedOn([{ ref: "E1", status: "not_found", reason: null }]), subtopic: "Pricing" };
    const pending = { ...supportedOn([{ ref: "E2", status: "pending", reason: null }]), subtopic: "Pricing" };
    expect(summarizeSubtopics(["Pricing"], [], [failed])[0]?.status).toBe("UNVERIFIED");
    expect(summarizeSubtopics(["Pricing"], [], [pending])[0]?.status).toBe("UNVERIFIED");
    expect(summarizeSubtopics(["Pricing"], [], [pending], true)[0]?.status).toBe("GROUNDED");
    // Citing evidence only a failed claim rests on: no grounded claim rests on it.
    const evidence = [{ ref: "E1" }, { ref: "E2" }];
    const claims = [failed, pending];
    const report = checkCitations("strict", { content: "Prices fell [E1]. Prices rose [E2].", citationRefs: [] }, { evidence, claims, subtopics: summarizeSubtopics(["Pricing"], [], claims, true) });
    expect(report.ungroundedRefs).toEqual(["E1"]);
    // The paragraph also cites E2, whose claim waits only on its source's check: it counts as cited meanwhile.
    expect(report.uncitedParagraphs).toEqual([]);
    expect(report.sources).toBeNull(); // this ledger was read without verdicts
  });
});

describe("citing a source by its URL", () => {
  const supported = claim("Pricing", "Prices fell by a third since 2023", ["E1"], [verdict("reviewer", "r1", "SUPPORTED")]);
  const other = claim("Pricing", "Discounts are common", ["E2"], [verdict("reviewer", "r1", "SUPPORTED")]);
  const claims = [supported, other];
  const evidence = [
    { ref: "E1", url: "https://stats.example/prices" },
    { ref: "E2", url: "https://shop.example/discounts" },
  ];
  const ledger = { evidence, claims, subtopics: summarizeSubtopics(["Pricing"], [], claims) };

  it("passes strict on [title](url) links to ledger sources, as [E#] would, and cites them", () => {
    const content = "Prices fell by a third since 2023 ([Agency statistics](https://stats.example/prices)).\n\nDiscounts are common [E2].";
    const report = checkCitations("strict", { content, citationRefs: [] }, ledger);
    expect(report).toMatchObject({ passed: true, citedRefs: ["E2", "E1"], uncitedParagraphs: [], problems: [] });
  });

  it("reads bare addresses, autolinks and reference links (full, collapsed and shortcut) the same way", () => {
    for (const cite of ["(https://STATS.example/prices/)", "<https://stats.example/prices>", "[the agency][stats]", "[stats][]", "[stats]"]) {
      const content = `Prices fell by a third since 2023 ${cite}.\n\nDiscounts are common [E2].\n\n[stats]: https://stats.example/prices`;
      const report = checkCitations("strict", { content, citationRefs: [] }, ledger);
      expect(report.problems, cite).toEqual([]);
      expect(report.citedRefs, cite).toContain("E1");
    }
  });

  it("cites the source of a structured citation given by its url alone", () => {
    const content = "Discounts are common [E2].";
    const report = checkCitations("report", { content, citationRefs: [], citations: [{ url: "http://stats.example/prices#table" }] }, ledger);
    expect(report.citedRefs).toEqual(["E2", "E1"]);
  });

  it("still refuses a paragraph linking only a page that is not a source", () => {
    const content = "Prices fell by a third since 2023 ([a blog](https://blog.example/prices)).\n\nDiscounts are common [E2].";
    const report = checkCitations("strict", { content, citationRefs: [] }, ledger);
    expect(report.passed).toBe(false);
    expect(report.unlistedLinks).toEqual(["https://blog.example/prices"]);
    expect(report.uncitedParagraphs).toEqual([{ position: 1, kind: "paragraph", start: "Prices fell by a third since 2023 ([a…" }]);
  });

  it("resolves a link to the entries with exactly its URL (fragment included) and rests on the grounded one of a page quoted twice", () => {
    const page = "https://stats.example/prices";
    const repeated = [
      { ref: "E1", url: page },
      { ref: "E2", url: "https://shop.example/discounts" },
      { ref: "E3", url: page }, // a second quote of the page, on no grounded claim
      { ref: "E4", url: `${page}#table-2` },
    ];
    const on = (content: string) => checkCitations("strict", { content: `${content}\n\nDiscounts are common [E2].`, citationRefs: [] }, { evidence: repeated, claims, subtopics: ledger.subtopics });
    const passing = on(`Prices fell by a third since 2023 ([Agency statistics](${page})).`);
    expect(passing).toMatchObject({ passed: true, problems: [] });
    expect(passing.citedRefs).not.toContain("E3");
    // With the fragment: only the entry holding it, which no grounded claim rests on: named, alone.
    const fragment = on(`Prices fell by a third since 2023 ([Table 2](${page}#table-2)).`);
    expect(fragment.passed).toBe(false);
    expect(fragment.problems.find((p) => p.startsWith("Cites evidence no grounded claim rests on"))).toMatch(/: E4\.$/);
    // Neither quote of the page grounded: the refusal names both.
    const neither = checkCitations("strict", { content: `Prices fell by a third since 2023 ([stats](${page})).\n\nDiscounts are common [E2].`, citationRefs: [] }, {
      evidence: repeated,
      claims: [other],
      subtopics: ledger.subtopics,
    });
    expect(neither.problems.find((p) => p.startsWith("Cites evidence no grounded claim rests on"))).toMatch(/: E1, E3\.$/);
  });

  it("refuses a paragraph whose linked source failed its check, as for its [E#]", () => {
    const failing = [
      { ref: "E1", url: "https://stats.example/prices", verification: { ...PENDING_OF("not_found") } },
      { ref: "E2", url: "https://shop.example/discounts", verification: { ...PENDING_OF("verified") } },
    ];
    const content = "Prices fell by a third since 2023 ([Agency statistics](https://stats.example/prices)).\n\nDiscounts are common [E2].";
    const report = checkCitations("strict", { content, citationRefs: [] }, { evidence: failing, claims, subtopics: ledger.subtopics });
    expect(report.passed).toBe(false);
    expect(report.sources?.unsupported).toEqual([{ where: expect.stringContaining("paragraph 1"), refs: ["E1"] }]);
  });
});
