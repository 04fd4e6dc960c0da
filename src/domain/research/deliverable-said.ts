/**
 * What a deliverable said, as "what changed" compares two of them: its text, the grounded claims it cites, and the
 * sources it cites. Pure. The plan's ledger holds more — claims never cited, claims the reviewers or critic refused,
 * sources the deliverable never named — and none of it is what the deliverable said: a comparison built from it would
 * report "dropped" claims a report never made and "gone" sources it never cited.
 */
import type { DeliverableSide } from "./changes";
import { awaitingChecks, type Claim, claimOutcome, citedRefsIn, type Evidence } from "./ledger";
import type { ResearchOutput } from "./outputs";

export interface LedgerForComparison {
  evidence: readonly Pick<Evidence, "ref" | "url">[];
  claims: readonly Pick<Claim, "ref" | "subtopic" | "text" | "evidenceRefs" | "verdicts" | "confidence" | "sourceChecks">[];
}

const EVIDENCE_REF = /^E\d+$/;
const CLAIM_REF = /^C\d+$/;

/**
 * The side of a comparison one deliverable gives: its content; the claims it cites ([C#] in its text or a citation's
 * ref) that are grounded (claimOutcome: SUPPORTED, not rejected, on a source whose check holds or is still pending);
 * and the URLs of the sources it cites — its [E#] refs and citations, the sources of the grounded claims it cites, and
 * its citations' own URLs. `ledger` is the deliverable's own plan's (null when it has none).
 */
export function whatDeliverableSaid(output: Pick<ResearchOutput, "content" | "citations">, ledger: LedgerForComparison | null): DeliverableSide {
  const inText = citedRefsIn(output.content);
  const citationRefs = output.citations.flatMap((citation) => (citation.ref ? [citation.ref] : []));
  const claimRefs = new Set([...inText.claims, ...citationRefs.filter((ref) => CLAIM_REF.test(ref))]);
  // Grounded as the deliverable's own check judged it: sources still being checked do not make a claim flicker in and out.
  const claims = (ledger?.claims ?? []).filter((claim) => claimRefs.has(claim.ref) && awaitingChecks(claimOutcome(claim)).grounded);
  const sourceRefs = new Set([...inText.evidence, ...citationRefs.filter((ref) => EVIDENCE_REF.test(ref)), ...claims.flatMap((claim) => claim.evidenceRefs)]);
  const ledgerUrls = (ledger?.evidence ?? []).filter((source) => sourceRefs.has(source.ref)).map((source) => source.url);
  const citationUrls = output.citations.flatMap((citation) => (citation.url ? [citation.url] : []));
  return {
    content: output.content,
    claims: claims.map((claim) => ({ subtopic: claim.subtopic, text: claim.text })),
    sourceUrls: [...new Set([...ledgerUrls, ...citationUrls])],
  };
}
