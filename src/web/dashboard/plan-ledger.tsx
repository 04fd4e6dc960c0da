import type { Services } from "../../domain/ports";
import { claimOutcome, summarizeSubtopics } from "../../domain/research/ledger";
import type { SourceChange } from "../../domain/sources/recheck";
import type { SourceVerification } from "../../domain/sources/verification";
import { changedSourceRefs, reverification } from "../../operations/ledger-views";
import { LedgerSources } from "./ledger-sources";
import { sourceHref, VerificationBadge } from "./source-status";



/**
 * The evidence ledger as the plan page shows it. Structurally a subset of the
 * ledger repository's `read()` result, so that result can be passed as it is.
 */
export interface EvidenceLedgerView {
  planId: string;
  citationPolicy: string;
  subtopics: { subtopic: string; status: string; evidence: number; claims: number; groundedClaims: number }[];
  evidence: { ref: string; url: string; title: string; verification: SourceVerification; recheck?: { change: SourceChange | null } }[];
  claims: {
    ref: string;
    subtopic: string;
    text: string;
    evidenceRefs: string[];
    confidence: number | null;
    /** Final status (claimOutcome): the critic's verdict where it ran, else the reviewers'. */
    status: string;
    grounded: boolean;
    /** Where its cited sources leave it: a claim its reviewers supported is not grounded while none holds. */
    sources: "holds" | "pending" | "failed";
    reviewerVerdict: string | null;
    criticVerdict: string | null;
    finalConfidence: number | null;
    verdicts: { kind: string; judge: string; verdict: string; reasoning: string | null }[];
    /** A reused claim judged too long ago, or resting on a source a re-check found changed or gone: verify it again. */
    needsReverification?: boolean;
    /** Its sources a re-check found changed or gone since verified. */
    sourcesChanged?: string[];
    /** The claim of another plan it was copied from. */
    reusedFrom?: { ref: string } | null;
  }[];
}

export function EvidenceLedger({ ledger }: { ledger: EvidenceLedgerView | null }) {
  if (!ledger || (ledger.claims.length === 0 && ledger.evidence.length === 0 && ledger.subtopics.length === 0)) {
    return <p class="muted">No evidence recorded for this plan.</p>;
  }
  const sources = new Map(ledger.evidence.map((e) => [e.ref, e]));
  return (
    <div class="table-wrap">
      <p class="muted">
        Citation policy: {ledger.citationPolicy} · {ledger.evidence.length} sources · {ledger.claims.length} claims
      </p>
      <ul class="subtopics">
        {ledger.subtopics.map((s) => (
          <li>
            <span class={s.status === "GROUNDED" ? "badge" : "badge unverified"}>{s.status}</span> {s.subtopic}{" "}
            <span class="muted">
              ({s.groundedClaims}/{s.claims} claims grounded, {s.evidence} sources)
            </span>
          </li>
        ))}
      </ul>
      <h3>Sources</h3>
      <LedgerSources planId={ledger.planId} evidence={ledger.evidence} />
      <h3>Claims</h3>
      {ledger.claims.length === 0 ? <p class="muted">No claims recorded.</p> : <ClaimsTable ledger={ledger} sources={sources} />}
    </div>
  );
}

function ClaimsTable({ ledger, sources }: { ledger: EvidenceLedgerView; sources: Map<string, EvidenceLedgerView["evidence"][number]> }) {
  return (
    <table class="stack">
      <thead>
        <tr>
          <th>Claim</th>
          <th>Subtopic</th>
          <th>Evidence</th>
          <th>Status</th>
          <th>Verdicts</th>
        </tr>
      </thead>
      <tbody>
        {ledger.claims.map((claim) => (
          <tr id={`claim-${claim.ref}`}>
            <td data-label="Claim">
              <strong>{claim.ref}</strong> {claim.text}
            </td>
            <td data-label="Subtopic">{claim.subtopic}</td>
            <td data-label="Evidence">
              {claim.evidenceRefs.map((ref) => {
                const source = sources.get(ref);
                return (
                  <div>
                    {source ? (
                      <>
                        <a href={sourceHref(ledger.planId, ref)}>{ref}</a> <VerificationBadge verification={source.verification} />
                        <span class="muted"> {source.title}</span>
                      </>
                    ) : (
                      ref
                    )}
                  </div>
                );
              })}
            </td>
            <td data-label="Status">
              <span class={claim.grounded ? "badge" : "badge unverified"}>{claim.status}</span>
              {claim.reusedFrom ? <div class="muted">reused from another plan's {claim.reusedFrom.ref}</div> : null}
              {claim.needsReverification ? (
                <div class="warn" data-needs-reverification>
                  needs re-verification
                  {claim.sourcesChanged?.length ? `: ${claim.sourcesChanged.join(", ")} changed or gone since verified` : claim.reusedFrom ? ": judged too long ago, or a source failed its check here" : ""}
                </div>
              ) : null}
              {claim.finalConfidence !== null ? <span class="muted"> {claim.finalConfidence.toFixed(2)}</span> : null}
              {claim.grounded || claim.reviewerVerdict !== "SUPPORTED" || claim.criticVerdict === "REJECT" ? null : claim.sources === "failed" ? (
                <div class="muted">not grounded: every cited source failed Cairn's check</div>
              ) : claim.sources === "pending" ? (
                <div class="muted">not grounded yet: sources still being checked</div>
              ) : null}
            </td>
            <td data-label="Verdicts">
              {claim.verdicts.length === 0 ? (
                <span class="muted">pending review</span>
              ) : (
                claim.verdicts.map((v) => (
                  <div>
                    <span class="badge">{v.verdict}</span> <span class="muted">{v.judge}</span>
                    {v.reasoning ? `: ${v.reasoning}` : ""}
                  </div>
                ))
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The plan's evidence ledger with each claim's final status and each subtopic's grounding, or null without one. */
export async function ledgerView(services: Services, orgId: string, planId: string, now: number): Promise<EvidenceLedgerView | null> {
  const header = await services.ledger.header(orgId, planId);
  if (!header) return null;
  const { evidence, claims } = await services.ledger.read(orgId, planId, false);
  const changed = changedSourceRefs(evidence);
  return {
    planId,
    citationPolicy: header.citationPolicy,
    subtopics: summarizeSubtopics(header.subtopics, evidence, claims),
    evidence,
    claims: claims.map((claim) => ({ ...claim, ...claimOutcome(claim), ...reverification(claim, changed, now) })),
  };
}
