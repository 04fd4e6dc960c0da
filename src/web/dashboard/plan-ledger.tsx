

/**
 * The evidence ledger as the plan page shows it. Structurally a subset of the
 * ledger repository's `read()` result, so that result can be passed as it is.
 */
export interface EvidenceLedgerView {
  citationPolicy: string;
  subtopics: { subtopic: string; status: string; evidence: number; claims: number; groundedClaims: number }[];
  evidence: { ref: string; url: string; title: string }[];
  claims: {
    ref: string;
    subtopic: string;
    text: string;
    evidenceRefs: string[];
    confidence: number | null;
    /** Final status (claimOutcome): the critic's verdict where it ran, else the reviewers'. */
    status: string;
    grounded: boolean;
    finalConfidence: number | null;
    verdicts: { kind: string; judge: string; verdict: string; reasoning: string | null }[];
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
            <tr>
              <td data-label="Claim">
                <strong>{claim.ref}</strong> {claim.text}
              </td>
              <td data-label="Subtopic">{claim.subtopic}</td>
              <td data-label="Evidence">
                {claim.evidenceRefs.map((ref) => {
                  const source = sources.get(ref);
                  return (
                    <div>
                      {ref}
                      {source ? <span class="muted"> {source.title}</span> : null}
                    </div>
                  );
                })}
              </td>
              <td data-label="Status">
                <span class={claim.grounded ? "badge" : "badge unverified"}>{claim.status}</span>
                {claim.finalConfidence !== null ? <span class="muted"> {claim.finalConfidence.toFixed(2)}</span> : null}
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
    </div>
  );
}
