/**
 * Citation integrity against what the cited pages say: a paragraph, list item or cited claim must not rest
 * only on sources whose check failed (source-standing.ts): the quote not found on the page (not_found), found only
 * in part (partial), or a page that does not exist (dead: what a made-up URL looks like).
 * Sources not checked yet (pending) make a strict deliverable wait; sources Cairn could not check though the page
 * may be live (walled, timed out: unreachable; unchecked) are allowed and named. Pure.
 *
 * A verdict reached on the text the assistant supplied (basis client_text: Cairn could not read the page) counts
 * by its status like any other, so a quote found in that text passes and one not found in it fails, but every such
 * cited source is named (clientText), so the report never presents it as Cairn's own reading of the page.
 */
import { isDeadSource, type SourceVerification, type VerificationStatus } from "../sources/verification";
import { bodyUnits, evidenceCitedIn, unitStart } from "./paragraph-citations";
import { describeCheck, sourceStanding } from "./source-standing";

export interface SourceProblem {
  ref: string;
  status: VerificationStatus;
  score: number | null;
  /** For partial: the closest passage on the page (the page's text, untrusted). */
  passage: string | null;
}

export interface SourceIntegrity {
  /** Paragraphs, list items and cited claims whose every source failed its check (not_found, partial or dead). */
  unsupported: { where: string; refs: string[] }[];
  /** Cited sources (directly or through a cited claim) whose quote was not found, or found only in part. */
  notVerified: SourceProblem[];
  /** Cited sources whose check has not run yet. */
  pending: string[];
  /** Cited sources Cairn could not check though the page may be live (walled, timed out, unreadable): allowed, named so the reader knows. */
  unchecked: { ref: string; status: VerificationStatus; reason: string | null }[];
  /** Cited sources whose page does not exist (unreachable, reason `dead: …`: a 404 or 410, a name that does not resolve): a failed check. */
  dead: { ref: string; status: VerificationStatus; reason: string | null }[];
  /** Cited sources checked against text the assistant supplied, not a page Cairn read (basis client_text). */
  clientText: string[];
}

export function checkSourceIntegrity(
  content: string,
  cited: { refs: string[]; claims: string[] },
  ledger: { evidence: { ref: string; verification: SourceVerification }[]; claims: { ref: string; evidenceRefs: string[] }[] },
  refsIn: (text: string) => string[] = evidenceCitedIn,
): SourceIntegrity {
  const verdicts = new Map(ledger.evidence.map((e) => [e.ref, e.verification]));
  const claimRefs = new Map(ledger.claims.map((c) => [c.ref, c.evidenceRefs]));
  const failed = (ref: string) => sourceStanding(verdicts.get(ref) ?? { status: "pending", reason: null }) === "failed";
  // Only sources the ledger has: unknown refs are the citation check's own problem.
  const restsOnlyOnFailed = (refs: string[]) => {
    const known = refs.filter((ref) => verdicts.has(ref));
    return known.length > 0 && known.every(failed);
  };

  const unsupported: SourceIntegrity["unsupported"] = [];
  for (const unit of bodyUnits(content)) {
    if (unit.exempt) continue;
    const claims = [...unit.text.matchAll(/\[(C\d{1,5})\]/g)].map((m) => m[1] as string);
    const refs = [...new Set([...refsIn(unit.text), ...claims.flatMap((c) => claimRefs.get(c) ?? [])])];
    if (restsOnlyOnFailed(refs)) unsupported.push({ where: `${unit.kind} ${unit.position} ("${unitStart(unit)}")`, refs: refs.filter((ref) => verdicts.has(ref)) });
  }
  for (const claim of cited.claims) {
    const refs = claimRefs.get(claim) ?? [];
    if (restsOnlyOnFailed(refs)) unsupported.push({ where: `claim ${claim}`, refs });
  }

  const all = [...new Set([...cited.refs, ...cited.claims.flatMap((c) => claimRefs.get(c) ?? [])])].filter((ref) => verdicts.has(ref));
  const byStatus = (statuses: VerificationStatus[]) => all.filter((ref) => statuses.includes((verdicts.get(ref) as SourceVerification).status));
  return {
    unsupported,
    notVerified: byStatus(["not_found", "partial"]).map((ref) => {
      const v = verdicts.get(ref) as SourceVerification;
      return { ref, status: v.status, score: v.score, passage: v.status === "partial" ? v.passage : null };
    }),
    pending: byStatus(["pending"]),
    unchecked: byStatus(["unreachable", "unchecked"]).flatMap((ref) => {
      const v = verdicts.get(ref) as SourceVerification;
      return isDeadSource(v) ? [] : [{ ref, status: v.status, reason: v.reason }];
    }),
    dead: all.flatMap((ref) => {
      const v = verdicts.get(ref) as SourceVerification;
      return isDeadSource(v) ? [{ ref, status: v.status, reason: v.reason }] : [];
    }),
    clientText: all.filter((ref) => verdicts.get(ref)?.basis === "client_text"),
  };
}

/** The problem a strict check reports; Cairn's words and refs only (passages are in the report and the ledger). */
export function sourceIntegrityProblem(integrity: SourceIntegrity): string | null {
  if (integrity.unsupported.length === 0) return null;
  const statusOf = new Map(integrity.notVerified.map((p) => [p.ref, p]));
  const deadOf = new Map(integrity.dead.map((d) => [d.ref, d]));
  const onClientText = new Set(integrity.clientText);
  const named = (ref: string) => {
    const p = statusOf.get(ref);
    const dead = deadOf.get(ref);
    if (dead) return describeCheck(dead);
    const where = onClientText.has(ref) ? ", in the text the assistant supplied" : "";
    return p ? `${ref} (${p.status}${p.score !== null ? `, score ${p.score}` : ""}${where})` : ref;
  };
  const places = integrity.unsupported.slice(0, 10).map((u) => `${u.where} on ${u.refs.map(named).join(", ")}`);
  return (
    "Rests only on sources whose quoted words Cairn did not find on the page (not_found), found only in part (partial), " +
    `or whose page does not exist (unreachable, dead: a made-up or broken URL): ${places.join("; ")}` +
    `${integrity.unsupported.length > 10 ? `; and ${integrity.unsupported.length - 10} more` : ""}. ` +
    "Quote the page exactly (get_evidence_ledger ref E# shows the closest passage), cite a verified source or one at a live URL, or mark the text UNVERIFIED."
  );
}
