import { changedSourcesOf, failedSourcesOf, needsReverification } from "../domain/research/claim-reuse";
import { z } from "zod";
import type { ClaimSourceFacts } from "../domain/research/claim-sources";
import { type Claim, claimOutcome, type Evidence, LEDGER_LIMITS } from "../domain/research/ledger";
import { ParamId } from "./params";
import { editsShown, PassageContextView, QuoteEditsView, SourcePassageView } from "./source-passages";

export const ParamPlanId = ParamId("plan");
export const ParamEvidenceRef = z.string().regex(/^E\d{1,5}$/, "An evidence ref such as E3");
export const ParamClaimRef = z.string().regex(/^C\d{1,5}$/, "A claim ref such as C3");
export const ParamSubtopic = z.string().trim().min(1).max(LEDGER_LIMITS.subtopicChars);

const clip = (text: string | null, chars: number) => (text !== null && text.length > chars ? `${text.slice(0, chars)}…` : text);

export const EvidenceView = z.object({
  ref: z.string(),
  url: z.string(),
  title: z.string(),
  facts: z.string().optional(),
  quote: z.string().nullable().optional(),
  fetchedAt: z.string().nullable(),
  contentHash: z.string(),
  subtopic: z.string().nullable(),
  query: z.string().nullable(),
  /** The web search tool's own ref for the result (cite it beside E#: "(ref: …)"). */
  evidenceRef: z.string().nullable(),
  /** How the search treated time, as the tool reported it; in a read of the one item. */
  temporalIntent: z.string().nullable().optional(),
  freshness: z.string().nullable().optional(),
  removedStaleYears: z.array(z.number()).optional(),
  /** Whether the page Cairn fetched says the quoted words (passage: the page's text, untrusted). */
  verification: z
    .object({
      status: z.string(),
      score: z.number().nullable().optional(),
      passage: z.string().optional(),
      /** Each bracket of the quote with the page words it stands for (beside the passage). */
      edits: QuoteEditsView.optional(),
      reason: z.string().optional(),
      titleMismatch: z.boolean().optional(),
      /** client_text: checked against text the assistant sent (Cairn could not read the page); fetched: Cairn's own reading. */
      basis: z.string().optional(),
      checkedAt: z.string().optional(),
      /** A re-check found the source changed (the quote is no longer on the page) or gone (unreachable) since it was verified. */
      change: z.enum(["changed", "gone"]).optional(),
      /** The snapshot the last re-check replaced (its SHA-256), to compare with the current one; in a read of the one item. */
      previousSnapshot: z.string().optional(),
      /** The page's text either side of the passage, from the snapshot; in a read of the one item. */
      context: PassageContextView.optional(),
    })
    .optional(),
});

const LISTED_PASSAGE_CHARS = 160;

/**
 * Compact in listings: status and score, the closest passage of a partial match with its brackets, the reason of a
 * source that is not verified (partial, not found, unreachable, unchecked), a title mismatch only when there is one,
 * and the basis only when it is the assistant's text (client_text); a read of the one item shows every field.
 */
function verificationView(v: Evidence["verification"], whole: boolean, recheck: Evidence["recheck"]) {
  const showPassage = v.passage !== null && (whole || v.status === "partial");
  const showReason = v.reason !== null && (whole || v.status !== "verified");
  return {
    status: v.status,
    ...(v.score !== null ? { score: v.score } : {}),
    ...(showPassage ? { passage: whole ? (v.passage ?? "") : (clip(v.passage, LISTED_PASSAGE_CHARS) ?? ""), ...editsShown(v.edits) } : {}),
    ...(showReason ? { reason: v.reason ?? "" } : {}),
    ...(v.titleMismatch ? { titleMismatch: true } : {}),
    // Listings name the basis only where it is not Cairn's own reading.
    ...(v.basis === "client_text" || (whole && v.basis !== null) ? { basis: v.basis ?? "" } : {}),
    ...(whole && v.checkedAt !== null ? { checkedAt: new Date(v.checkedAt).toISOString() } : {}),
    ...(recheck?.change ? { change: recheck.change } : {}),
    ...(whole && recheck?.previousSnapshot ? { previousSnapshot: recheck.previousSnapshot } : {}),
  };
}

/** The refs of the ledger's sources a re-check found changed or gone since verified (their claims are flagged). */
export const changedSourceRefs = (evidence: readonly Evidence[]): ReadonlySet<string> => new Set(evidence.filter((e) => e.recheck?.change).map((e) => e.ref));

/** How much of each text a listing shows; a read of one item (`ref`) shows it whole. */
export interface ViewBounds {
  textChars: number;
  shortChars: number;
}

export const WHOLE: ViewBounds = { textChars: Number.POSITIVE_INFINITY, shortChars: Number.POSITIVE_INFINITY };

/** Texts are clipped in listings: a ledger of hundreds of sources must still fit a response. */
export const evidenceView = (evidence: Evidence, bounds: ViewBounds): z.infer<typeof EvidenceView> => ({
  ref: evidence.ref,
  url: clip(evidence.url, bounds.shortChars) ?? "",
  title: clip(evidence.title, bounds.shortChars) ?? "",
  facts: clip(evidence.facts, bounds.textChars) ?? "",
  // Quotes only in a read of the one item: listings stay small.
  ...(bounds === WHOLE ? { quote: evidence.quote } : {}),
  fetchedAt: evidence.fetchedAt === null ? null : new Date(evidence.fetchedAt).toISOString(),
  contentHash: evidence.contentHash,
  subtopic: evidence.subtopic,
  query: clip(evidence.query, bounds.shortChars),
  evidenceRef: evidence.search.evidenceRef,
  ...(bounds === WHOLE
    ? { temporalIntent: evidence.search.temporalIntent, freshness: evidence.search.freshness, removedStaleYears: evidence.search.removedStaleYears }
    : {}),
  verification: verificationView(evidence.verification, bounds === WHOLE, evidence.recheck),
});

export const ClaimView = z.object({
  claimId: z.string(),
  ref: z.string(),
  subtopic: z.string(),
  text: z.string(),
  evidenceRefs: z.array(z.string()),
  workerIds: z.array(z.string()),
  confidence: z.number().nullable(),
  highStakes: z.boolean(),
  status: z.string(),
  reviewerVerdict: z.string().nullable(),
  criticVerdict: z.string().nullable(),
  grounded: z.boolean(),
  finalConfidence: z.number().nullable(),
  verdicts: z.array(
    z.object({ kind: z.string(), judge: z.string(), shard: z.number().nullable(), verdict: z.string(), reasoning: z.string().nullable(), confidence: z.number().nullable() }),
  ),
  /** Where a reused claim came from (another plan of the org), as it stood when copied. */
  reusedFrom: z
    .object({ planId: z.string(), claimId: z.string(), ref: z.string(), status: z.string(), judgedAt: z.string(), reusedAt: z.string() })
    .nullable(),
  /** A reused claim judged longer ago than the freshness window, or resting on a source found changed since verified: verify it again before relying on it. */
  needsReverification: z.boolean(),
  /** The sources it rests on, those whose located passages are the same text (syndicated copies) counted once. */
  independentSources: z.number().optional(),
  /** Cited sources whose located passages are the same text, when there are any. */
  sameText: z.array(z.array(z.string())).optional(),
  /** Numbers the claim states that none of its cited quotes states, when there are any: check them against the source. */
  numbersNotInQuotes: z.array(z.string()).optional(),
  /** Its sources a re-check found changed or gone since they were verified. */
  sourcesChanged: z.array(z.string()).optional(),
  /** In a read of the claim: each cited source Cairn read, its status and located passage with the page's text around it. */
  sourcePassages: z.array(SourcePassageView).optional(),
});

export const claimView = (
  claim: Claim,
  bounds: ViewBounds,
  sources?: ClaimSourceFacts,
  changed: ReadonlySet<string> = new Set(),
  now = Date.now(),
): z.infer<typeof ClaimView> => ({
  claimId: claim.claimId,
  ref: claim.ref,
  subtopic: claim.subtopic,
  text: clip(claim.text, bounds.textChars) ?? "",
  evidenceRefs: claim.evidenceRefs,
  workerIds: claim.workerIds.slice(0, 10).map((id) => clip(id, bounds.shortChars) ?? ""),
  confidence: claim.confidence,
  highStakes: claim.highStakes,
  ...outcomeView(claim),
  verdicts: claim.verdicts.map((v) => ({
    kind: v.kind,
    judge: clip(v.judge, bounds.shortChars) ?? "",
    shard: v.shard,
    verdict: v.verdict,
    reasoning: clip(v.reasoning, bounds.textChars),
    confidence: v.confidence,
  })),
  reusedFrom: claim.reusedFrom
    ? { ...claim.reusedFrom, judgedAt: new Date(claim.reusedFrom.judgedAt).toISOString(), reusedAt: new Date(claim.reusedFrom.reusedAt).toISOString() }
    : null,
  ...reverification(claim, changed, now),
  ...(sources ? { independentSources: sources.independentSources } : {}),
  ...(sources?.sameText.length ? { sameText: sources.sameText } : {}),
  ...(sources?.numbersNotInQuotes.length ? { numbersNotInQuotes: sources.numbersNotInQuotes } : {}),
});

/** The outcome a claim view shows (where its sources stand is told by their own verification, not repeated). */
function outcomeView(claim: Claim) {
  const { status, reviewerVerdict, criticVerdict, grounded, finalConfidence } = claimOutcome(claim);
  return { status, reviewerVerdict, criticVerdict, grounded, finalConfidence };
}

/** Whether a claim needs verifying again, and which of its sources were found changed (present only when some were). */
export function reverification(claim: Claim, changed: ReadonlySet<string>, now: number): { needsReverification: boolean; sourcesChanged?: string[] } {
  const sourcesChanged = changedSourcesOf(claim, changed);
  // A copy was judged on the original's pages: one of its sources failing its check here calls for judging it again.
  const stale = claim.reusedFrom ? needsReverification(claim.reusedFrom, now) || failedSourcesOf(claim).length > 0 : false;
  return { needsReverification: stale || sourcesChanged.length > 0, ...(sourcesChanged.length > 0 ? { sourcesChanged } : {}) };
}

/**
 * The compact listing (the default): what each step's use of the ledger needs and nothing the model does not use.
 * Evidence: ref, title, subtopic; the facts where a step judges or writes from them; the url where the report
 * cites. Claims: ref, subtopic, text, refs cited, status and confidence, and who judged it how in one line.
 * `detail: "full"` gives the whole records (clipped), `ref` one item whole.
 */
export const CompactEvidenceView = z.object({
  ref: z.string(),
  title: z.string(),
  subtopic: z.string().nullable().optional(),
  url: z.string().optional(),
  facts: z.string().optional(),
  /** Whether the page says the quoted words: pending, verified, partial, not_found, unreachable or unchecked (reasons and scores: `detail: "full"`, or `ref`). */
  verification: z.string(),
  /** A partial match: how close, and the page's closest passage (its text, untrusted) to quote exactly instead. */
  closest: z.object({ score: z.number().nullable(), passage: z.string(), edits: QuoteEditsView.optional() }).optional(),
  /** The page's title is not the one recorded (a real URL for another document?). */
  titleMismatch: z.literal(true).optional(),
  /** Cairn could not read the page: the verdict is on the text the assistant sent, not Cairn's reading. */
  basis: z.literal("client_text").optional(),
  /** A re-check found it changed or gone since verified. */
  change: z.enum(["changed", "gone"]).optional(),
});


export interface CompactParts {
  /** Leave out the subtopic: the listing is of one subtopic. */
  subtopic: boolean;
  facts: boolean;
  url: boolean;
}

export const compactEvidenceView = (evidence: Evidence, bounds: ViewBounds, parts: CompactParts): z.infer<typeof CompactEvidenceView> => ({
  ref: evidence.ref,
  title: clip(evidence.title, bounds.shortChars) ?? "",
  ...(parts.subtopic ? { subtopic: evidence.subtopic } : {}),
  ...(parts.url ? { url: clip(evidence.url, bounds.shortChars) ?? "" } : {}),
  ...(parts.facts ? { facts: clip(evidence.facts, bounds.textChars) ?? "" } : {}),
  verification: evidence.verification.status,
  ...(evidence.verification.status === "partial"
    ? { closest: { score: evidence.verification.score, passage: clip(evidence.verification.passage, LISTED_PASSAGE_CHARS) ?? "", ...editsShown(evidence.verification.edits) } }
    : {}),
  ...(evidence.verification.titleMismatch ? { titleMismatch: true as const } : {}),
  ...(evidence.verification.basis === "client_text" ? { basis: "client_text" as const } : {}),
  ...(evidence.recheck?.change ? { change: evidence.recheck.change } : {}),
});

/** A judge's name in the one-line verdicts (reviewer-1, critic); the full view has it longer. */
const JUDGE_CHARS = 40;

export const CompactClaimView = z.object({
  ref: z.string(),
  subtopic: z.string().optional(),
  text: z.string(),
  evidenceRefs: z.array(z.string()),
  status: z.string(),
  /** Present (true) when the claim may carry weight in a deliverable. */
  grounded: z.literal(true).optional(),
  finalConfidence: z.number().nullable(),
  highStakes: z.literal(true).optional(),
  /** Who judged the claim how, e.g. "reviewer-1 SUPPORTED; critic SURVIVES"; reasoning in a read of the claim (ref). */
  verdicts: z.string().optional(),
  reusedFrom: z.string().optional(),
  needsReverification: z.literal(true).optional(),
  /** Only when syndicated copies (the same located text) make it fewer than the sources cited. */
  independentSources: z.number().optional(),
  /** Numbers the claim states that none of its cited quotes states, when there are any. */
  numbersNotInQuotes: z.array(z.string()).optional(),
  sourcesChanged: z.array(z.string()).optional(),
});

export const compactClaimView = (
  claim: Claim,
  bounds: ViewBounds,
  parts: Pick<CompactParts, "subtopic">,
  sources?: ClaimSourceFacts,
  changed: ReadonlySet<string> = new Set(),
  now = Date.now(),
): z.infer<typeof CompactClaimView> => {
  const { status, grounded, finalConfidence } = claimOutcome(claim);
  const again = reverification(claim, changed, now);
  return {
    ref: claim.ref,
    ...(parts.subtopic ? { subtopic: claim.subtopic } : {}),
    text: clip(claim.text, bounds.textChars) ?? "",
    evidenceRefs: claim.evidenceRefs,
    status,
    ...(grounded ? { grounded: true as const } : {}),
    finalConfidence,
    ...(claim.highStakes ? { highStakes: true as const } : {}),
    ...(claim.verdicts.length > 0
      ? {
          verdicts: [...claim.verdicts]
            .sort((a, b) => Number(a.kind === "critic") - Number(b.kind === "critic") || a.judge.localeCompare(b.judge))
            .map((v) => `${clip(v.judge, JUDGE_CHARS)} ${v.verdict}`)
            .join("; "),
        }
      : {}),
    ...(claim.reusedFrom ? { reusedFrom: claim.reusedFrom.claimId } : {}),
    ...(again.needsReverification ? { needsReverification: true as const } : {}),
    ...(again.sourcesChanged ? { sourcesChanged: again.sourcesChanged } : {}),
    ...(sources && sources.sameText.length > 0 ? { independentSources: sources.independentSources } : {}),
    ...(sources?.numbersNotInQuotes.length ? { numbersNotInQuotes: sources.numbersNotInQuotes } : {}),
  };
};

/** When an item last changed: recorded, or (a claim) judged. */
export const evidenceChangedAt = (evidence: Evidence) => evidence.createdAt;
export const claimChangedAt = (claim: Claim) => Math.max(claim.createdAt, ...claim.verdicts.map((v) => v.createdAt));
