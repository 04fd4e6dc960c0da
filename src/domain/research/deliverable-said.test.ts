import { describe, expect, it } from "vitest";
import { deliverableChanges } from "./changes";
import { whatDeliverableSaid } from "./deliverable-said";
import type { Claim, Verdict } from "./ledger";

const verdict = (kind: Verdict["kind"], v: Verdict["verdict"]): Verdict => ({ kind, judge: kind === "critic" ? "critic" : "reviewer-1", shard: kind === "reviewer" ? 1 : null, verdict: v, reasoning: null, confidence: null, createdAt: 0 });
const supported = [verdict("reviewer", "SUPPORTED")];

type LedgerClaim = Pick<Claim, "ref" | "subtopic" | "text" | "evidenceRefs" | "verdicts" | "confidence" | "sourceChecks">;
const claim = (ref: string, text: string, evidenceRefs: string[], verdicts: Verdict[], status: "verified" | "not_found" | "pending" = "verified"): LedgerClaim => ({
  ref,
  subtopic: "Deals",
  text,
  evidenceRefs,
  verdicts,
  confidence: 0.8,
  sourceChecks: evidenceRefs.map((r) => ({ ref: r, status, reason: null })),
});

const sources = ["one", "two", "three", "four", "five"].map((name, i) => ({ ref: `E${i + 1}`, url: `https://${name}.example/` }));

/** The previous run's ledger holds far more than its deliverable said. */
const previousLedger = {
  evidence: sources,
  claims: [
    claim("C1", "Acme bought Widgets Ltd for 40 million dollars", ["E1"], supported),
    claim("C2", "Acme plans a second acquisition this year", ["E3"], [verdict("reviewer", "UNSUPPORTED")]),
    claim("C3", "Widgets Ltd had 12 factories at the time", ["E4"], [...supported, verdict("critic", "REJECT")]),
    claim("C4", "CONFIDENTIAL: Project Falcon acquisition budget is 9 million dollars", ["E5"], supported),
    claim("C5", "Acme's board approved the deal unanimously", ["E5"], []),
    claim("C6", "The deal closed in March", ["E2"], supported, "not_found"),
    claim("C7", "Widgets Ltd kept its brand", ["E2"], supported, "pending"),
  ],
};
const previous = {
  content: "# Acme\n\nAcme bought Widgets Ltd [C1] for 40 million dollars [E2]. A second deal may follow [C2]. It had 12 factories [C3]. It closed in March [C6]. It kept its brand [C7].\n",
  citations: [],
};

describe("what a deliverable said", () => {
  it("is its text, the grounded claims it cites and the sources it cites: never refused, rejected, pending or uncited claims, nor sources it never cited", () => {
    const side = whatDeliverableSaid(previous, previousLedger);
    expect(side.content).toBe(previous.content);
    // C7's source is still being checked: it counts as the deliverable's check counted it (a failed check, C6, does not).
    expect(side.claims).toEqual([
      { subtopic: "Deals", text: "Acme bought Widgets Ltd for 40 million dollars" },
      { subtopic: "Deals", text: "Widgets Ltd kept its brand" },
    ]);
    // E2 cited in its text, E1 through its grounded claim C1; not E3 (a refused claim's), E4 (a rejected one's) or E5 (never cited).
    expect([...side.sourceUrls].sort()).toEqual(["https://one.example/", "https://two.example/"]);
  });

  it("counts a citation's ref and URL as cited, and a plan without a ledger as its text and citations alone", () => {
    const side = whatDeliverableSaid({ content: "No refs here.", citations: [{ ref: "C4", title: "x" }, { ref: "E3", title: "y" }, { title: "Outside", url: "https://outside.example/report" }] }, previousLedger);
    expect(side.claims.map((c) => c.text)).toEqual(["CONFIDENTIAL: Project Falcon acquisition budget is 9 million dollars"]);
    expect([...side.sourceUrls].sort()).toEqual(["https://five.example/", "https://outside.example/report", "https://three.example/"]);
    expect(whatDeliverableSaid({ content: "Text [C1] [E1].", citations: [] }, null)).toEqual({ content: "Text [C1] [E1].", claims: [], sourceUrls: [] });
  });

  it("makes 'what changed' report only what the earlier deliverable said", () => {
    const currentLedger = {
      evidence: [{ ref: "E1", url: "https://one.example/" }, { ref: "E2", url: "https://six.example/" }],
      claims: [claim("C1", "Acme bought Widgets Ltd for 45 million dollars", ["E1"], supported)],
    };
    const changes = deliverableChanges(whatDeliverableSaid(previous, previousLedger), whatDeliverableSaid({ content: "# Acme\n\nAcme bought Widgets Ltd [C1] [E2].\n", citations: [] }, currentLedger));
    expect(changes.claims.dropped).toEqual(["Widgets Ltd kept its brand"]);
    expect(changes.claims.new).toEqual([]);
    expect(changes.claims.changed).toEqual([{ before: "Acme bought Widgets Ltd for 40 million dollars", after: "Acme bought Widgets Ltd for 45 million dollars" }]);
    // Two sources cited before, one of them cited again: one gone, not four.
    expect(changes.sources).toEqual({ new: ["https://six.example"], gone: ["https://two.example"] });
    const said = JSON.stringify(changes);
    for (const unsaid of ["second acquisition", "CONFIDENTIAL", "Project Falcon", "board approved", "three.example", "four.example", "five.example"]) expect(said).not.toContain(unsaid);
  });
});
