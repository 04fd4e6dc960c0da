/**
 * The deep-research evidence ledger of seed 001, kept per plan: evidence (E1, E2, …), claims
 * (C1, C2, …) citing it, reviewer and critic verdicts on the claims, and the citation check a
 * deliverable of the plan must pass. Pure: storage keeps rows, this module decides what they mean.
 */
import type { SourceVerification } from "../sources/verification";
import { type SourceCheck, type SourceStanding, sourceStanding, standingOf } from "./source-standing";
import type { SourceChange } from "../sources/recheck";
import type { ReusedFrom } from "./claim-reuse";
import { numbersNotInQuotes as numbersUnquoted } from "./claim-sources";
import { type UncitedUnit, uncitedUnits } from "./paragraph-citations";
import { sourceCitations } from "./citation-links";
import { reportedLinks, unlistedLinks as unlistedLinksIn, unlistedLinksProblem } from "./deliverable-links";
import { type CitationAddress, checkCitationUrls, mismatchedCitationUrlsProblem, reportedMismatches } from "./citation-urls";
import { checkSourceIntegrity, type SourceIntegrity, sourceIntegrityProblem } from "./source-integrity";


export const REVIEWER_VERDICTS = ["SUPPORTED", "UNSUPPORTED", "OVERSTATED", "CONTRADICTED"] as const;
export type ReviewerVerdict = (typeof REVIEWER_VERDICTS)[number];

export const CRITIC_VERDICTS = ["SURVIVES", "DOWNGRADE", "REJECT"] as const;
export type CriticVerdict = (typeof CRITIC_VERDICTS)[number];

export const CITATION_POLICIES = ["strict", "report"] as const;
export type CitationPolicy = (typeof CITATION_POLICIES)[number];

/** `PENDING_REVIEW` until a reviewer judged the claim; then the critic's verdict where it ran, else the reviewers'. */
export type ClaimStatus = "PENDING_REVIEW" | ReviewerVerdict | CriticVerdict;

export const LEDGER_LIMITS = {
  evidencePerCall: 50,
  claimsPerCall: 50,
  verdictsPerCall: 100,
  evidencePerPlan: 2_000,
  claimsPerPlan: 2_000,
  subtopicsPerPlan: 20,
  subtopicChars: 120,
  factsChars: 4_000,
  claimChars: 2_000,
  reasoningChars: 2_000,
  refsPerClaim: 20,
  /** Reviewers and critics judging one claim: seed 001 has two reviewers and a critic. */
  judgesPerClaim: 6,
  /** Claims and evidence one default ledger read returns. */
  readItems: 50,
} as const;

export interface Evidence {
  ref: string;
  url: string;
  title: string;
  facts: string;
  quote: string | null;
  fetchedAt: number | null;
  contentHash: string;
  subtopic: string | null;
  query: string | null;
  /** What the web search tool said about the result: its own ref, and the query's time handling. */
  search: SearchMetadata;
  recordedBy: string;
  createdAt: number;
  /** What Cairn found when it fetched the page (pending until its check ran). */
  verification: SourceVerification;
  /** SHA-256 of the text the assistant sent for the page (record_evidence's sourceText), where the read has it. */
  clientText?: string | null;
  /** A re-check found the source changed or gone since it was verified (its claims need verifying again); the snapshot it replaced. */
  recheck?: { change: SourceChange | null; previousSnapshot: string | null };
}

/** seed 001 step 3: kept with each source as the search tool gave it. */
export interface SearchMetadata {
  evidenceRef: string | null;
  temporalIntent: string | null;
  freshness: string | null;
  removedStaleYears: number[];
}

export interface Verdict {
  kind: "reviewer" | "critic";
  /** Who judged: `reviewer-1`, `critic`, … One verdict per judge and claim; judging again replaces it. */
  judge: string;
  /** The reviewer's shard (1 or 2); null for the critic. */
  shard: number | null;
  verdict: ReviewerVerdict | CriticVerdict;
  reasoning: string | null;
  confidence: number | null;
  createdAt: number;
}

export interface Claim {
  /** Global id (`clm_…`): how search hits and fetch name a claim across plans. */
  claimId: string;
  /** Plan-wide label: C1, C2, … */
  ref: string;
  planId: string;
  subtopic: string;
  text: string;
  evidenceRefs: string[];
  workerIds: string[];
  /** The synthesis worker's own confidence. */
  confidence: number | null;
  highStakes: boolean;
  createdAt: number;
  verdicts: Verdict[];
  /** Set when the claim was copied from another plan of the org (see claim-reuse.ts). */
  reusedFrom: ReusedFrom | null;
  /** Cairn's check of each cited source as it stands now (every read of a claim carries them, as it does its verdicts). */
  sourceChecks: SourceCheck[];
}

export interface ClaimOutcome {
  status: ClaimStatus;
  reviewerVerdict: ReviewerVerdict | null;
  criticVerdict: CriticVerdict | null;
  /**
   * Fit to carry weight in a deliverable: reviewed SUPPORTED by every reviewer, not rejected by the critic, and
   * resting on at least one source whose check holds (not not_found, partial or a dead URL; not still pending).
   */
  grounded: boolean;
  /** Where its cited sources leave it (source-standing.ts): pending while none holds yet but one is still being checked. */
  sources: SourceStanding;
  finalConfidence: number | null;
}

const REVIEWER_SEVERITY: Record<ReviewerVerdict, number> = { SUPPORTED: 0, OVERSTATED: 1, UNSUPPORTED: 2, CONTRADICTED: 3 };
const CRITIC_SEVERITY: Record<CriticVerdict, number> = { SURVIVES: 0, DOWNGRADE: 1, REJECT: 2 };

const worst = <V extends string>(verdicts: V[], severity: Record<V, number>): V | null =>
  verdicts.reduce<V | null>((acc, v) => (acc === null || severity[v] > severity[acc] ? v : acc), null);

const lowest = (values: (number | null)[]): number | null => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? Math.min(...present) : null;
};

/**
 * seed 001 steps 5–6: a claim not SUPPORTED by its reviewers is dropped; the critic may then let it
 * survive, downgrade it (still grounded, lower confidence) or reject it. Final confidence is the
 * critic's where it ran, else the reviewers' (the lowest when both shards judged it), else the worker's.
 * Reviewers judge the claim against the recorded quotes; Cairn's check says whether the pages say them: a claim
 * whose every source failed its check (or is not checked yet) is not grounded, whatever the reviewers said.
 * The one place "grounded" is decided: every face (deliverable checks, ledger, search, fetch, reuse, dashboard) asks it.
 */
export function claimOutcome(claim: Pick<Claim, "verdicts" | "confidence" | "sourceChecks">): ClaimOutcome {
  const reviewers = claim.verdicts.filter((v) => v.kind === "reviewer");
  const critics = claim.verdicts.filter((v) => v.kind === "critic");
  const reviewerVerdict = worst(reviewers.map((v) => v.verdict as ReviewerVerdict), REVIEWER_SEVERITY);
  const criticVerdict = worst(critics.map((v) => v.verdict as CriticVerdict), CRITIC_SEVERITY);
  const sources = standingOf(claim.sourceChecks);
  if (reviewerVerdict === null) {
    return { status: "PENDING_REVIEW", reviewerVerdict, criticVerdict, grounded: false, sources, finalConfidence: claim.confidence };
  }
  const reviewed = reviewerVerdict === "SUPPORTED";
  const status: ClaimStatus = reviewed && criticVerdict ? criticVerdict : reviewerVerdict;
  const finalConfidence = critics.length
    ? (lowest(critics.map((v) => v.confidence)) ?? lowest(reviewers.map((v) => v.confidence)) ?? claim.confidence)
    : (lowest(reviewers.map((v) => v.confidence)) ?? claim.confidence);
  return { status, reviewerVerdict, criticVerdict, grounded: reviewed && criticVerdict !== "REJECT" && sources === "holds", sources, finalConfidence };
}

/**
 * A claim's outcome for a deliverable's check (and for what a deliverable said, deliverable-said.ts): one judged
 * grounded whose sources are only pending counts as grounded until they are checked.
 */
export function awaitingChecks(outcome: ClaimOutcome): ClaimOutcome {
  const judged = outcome.reviewerVerdict === "SUPPORTED" && outcome.criticVerdict !== "REJECT";
  return outcome.sources === "pending" && judged ? { ...outcome, grounded: true } : outcome;
}

/** Duplicate claims merge: the same words, whatever their case, spacing and punctuation. */
export const normalizeClaim = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

export const normalizeSubtopic = (text: string): string => text.trim().replace(/\s+/g, " ");

export interface SubtopicSummary {
  subtopic: string;
  /** GROUNDED when at least one claim of it is grounded; UNVERIFIED otherwise (seed 001: never presented as fact). */
  status: "GROUNDED" | "UNVERIFIED";
  evidence: number;
  claims: number;
  groundedClaims: number;
}

/**
 * `forDeliverable`: as a deliverable's check reads the ledger, a claim whose sources are only pending counts as it
 * will once they are checked (the strict check waits for them).
 */
export function summarizeSubtopics(declared: string[], evidence: Pick<Evidence, "subtopic">[], claims: Claim[], forDeliverable = false): SubtopicSummary[] {
  const names = new Map<string, string>();
  const add = (name: string | null) => {
    if (name && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  };
  for (const name of declared) add(name);
  for (const item of evidence) add(item.subtopic);
  for (const claim of claims) add(claim.subtopic);
  return [...names.entries()].map(([key, subtopic]) => {
    const of = claims.filter((c) => c.subtopic.toLowerCase() === key);
    const groundedClaims = of.filter((c) => (forDeliverable ? awaitingChecks(claimOutcome(c)) : claimOutcome(c)).grounded).length;
    return {
      subtopic,
      status: groundedClaims > 0 ? "GROUNDED" : "UNVERIFIED",
      evidence: evidence.filter((e) => e.subtopic?.toLowerCase() === key).length,
      claims: of.length,
      groundedClaims,
    };
  });
}

export interface CitationReport {
  policy: CitationPolicy;
  passed: boolean;
  citedRefs: string[];
  citedClaims: string[];
  /** Cited refs (E…) or claims (C…) the ledger does not have. */
  unknownRefs: string[];
  /** Cited evidence on which no grounded claim rests: the text citing it carries an unverified claim. */
  ungroundedRefs: string[];
  /** Cited claims (C…) that are not grounded. */
  ungroundedClaims: string[];
  /** Claims judged UNSUPPORTED, CONTRADICTED or REJECT whose text the deliverable repeats. */
  rejectedClaimsRepeated: string[];
  /** Claims judged OVERSTATED whose text the deliverable repeats as it was, without the qualifier the reviewer asked for. */
  overstatedClaimsRepeated: string[];
  /** Paragraphs and list items citing no grounded evidence, outside method, limitations, sources and UNVERIFIED text. */
  uncitedParagraphs: UncitedUnit[];
  /** UNVERIFIED subtopics the deliverable does not mark as UNVERIFIED. */
  unmarkedUnverifiedSubtopics: string[];
  unverifiedSubtopics: string[];
  /** Grounded but downgraded by the critic: allowed, to be presented with their lower confidence. */
  downgradedClaimsCited: string[];
  /** What Cairn found on the cited pages (null when the ledger was read without verdicts). */
  sources: SourceIntegrity | null;
  /**
   * Claims the deliverable rests on (cited, or grounded on cited evidence) stating numbers none of their cited quotes
   * states: named for the reader, not refused (a number may be in the source beyond the quote). The first 20 claims
   * (get_evidence_ledger flags every one).
   */
  numbersNotInQuotes: { claim: string; numbers: string[] }[];
  /**
   * Web addresses the deliverable links, in its content or as a citation's url, that are not the URL of a source in
   * the ledger (the first 20, as written).
   */
  unlistedLinks: string[];
  /** Citations whose ref names a source at another URL than theirs (the first 10 at most, sharing the room of unlistedLinks). */
  mismatchedCitationUrls: { ref: string; url: string }[];
  problems: string[];
}

/** Claims with unquoted numbers a citation report names: an acknowledgement stays small; the ledger has them all. */
const NUMBER_FLAGS_IN_REPORT = 20;

const REF_PATTERN = /\[(E\d{1,5})\]|\[(C\d{1,5})\]/g;
const REF_LIST_PATTERN = /\[((?:[EC]\d{1,5})(?:\s*[,;]\s*[EC]\d{1,5})+)\]/g;

/** Every `[E3]`, `[C2]` and `[E1, E4]` the text cites, in order of first appearance. */
export function citedRefsIn(text: string): { evidence: string[]; claims: string[] } {
  const evidence = new Set<string>();
  const claims = new Set<string>();
  const take = (ref: string) => (ref.startsWith("E") ? evidence : claims).add(ref);
  for (const match of text.matchAll(REF_PATTERN)) take((match[1] ?? match[2]) as string);
  for (const match of text.matchAll(REF_LIST_PATTERN)) for (const ref of (match[1] as string).split(/\s*[,;]\s*/)) take(ref);
  return { evidence: [...evidence], claims: [...claims] };
}

/** A paragraph or line naming the subtopic and the word UNVERIFIED marks it. */
function marksUnverified(content: string, subtopic: string): boolean {
  const needle = subtopic.toLowerCase();
  return content.split(/\n/).some((line) => line.includes("UNVERIFIED") && line.toLowerCase().includes(needle));
}

/**
 * seed 001 step 7, enforced: every cited ref exists, every cited ref backs a grounded claim (so
 * every load-bearing claim is SUPPORTED or SURVIVES), rejected claims are not repeated, and every
 * UNVERIFIED subtopic is marked as such.
 */
export function checkCitations(
  policy: CitationPolicy,
  deliverable: { content: string; citationRefs: string[]; mediaType?: string; citations?: readonly CitationAddress[] },
  ledger: { evidence: (Pick<Evidence, "ref"> & Partial<Pick<Evidence, "verification" | "quote" | "url">>)[]; claims: Claim[]; subtopics: SubtopicSummary[] },
): CitationReport {
  const cited = citedRefsIn(deliverable.content);
  // A claim whose sources are still being checked counts here as it will once they are: the source check
  // (checkSourceIntegrity) names them pending, and a strict deliverable waits for them (store-research-output).
  const outcomes = new Map(ledger.claims.map((c) => [c.ref, awaitingChecks(claimOutcome(c))]));
  const groundedRefs = new Set(ledger.claims.filter((c) => outcomes.get(c.ref)?.grounded).flatMap((c) => c.evidenceRefs));
  // A link to a ledger source cites it as its [E#] does (citation-links.ts): for the paragraphs, the claims and the
  // cited sources; of several entries at its URL, the grounded ones whose check did not fail.
  const sourceUrls = ledger.evidence.flatMap((e) => (e.url ? [{ ref: e.ref, url: e.url }] : []));
  const holding = new Set(ledger.evidence.filter((e) => groundedRefs.has(e.ref) && !(e.verification && sourceStanding(e.verification) === "failed")).map((e) => e.ref));
  const links = sourceCitations(deliverable.content, sourceUrls, deliverable.mediaType, holding);
  // A structured citation with a source's url and no ref cites that source too (one with a ref is checked by its ref).
  const byUrl = links.refsOf((deliverable.citations ?? []).flatMap((c) => (!c.ref && c.url ? [c.url] : [])));
  const citedRefs = [...new Set([...cited.evidence, ...links.linkedRefs, ...byUrl, ...deliverable.citationRefs.filter((ref) => /^E\d+$/.test(ref))])];
  const citedClaims = [...new Set([...cited.claims, ...deliverable.citationRefs.filter((ref) => /^C\d+$/.test(ref))])];
  const evidenceRefs = new Set(ledger.evidence.map((e) => e.ref));
  const claimsByRef = new Map(ledger.claims.map((c) => [c.ref, c]));

  const unknownRefs = [...citedRefs.filter((r) => !evidenceRefs.has(r)), ...citedClaims.filter((r) => !claimsByRef.has(r))];
  const ungroundedRefs = citedRefs.filter((r) => evidenceRefs.has(r) && !groundedRefs.has(r));
  const ungroundedClaims = citedClaims.filter((r) => claimsByRef.has(r) && !outcomes.get(r)?.grounded);
  const normalizedContent = normalizeClaim(deliverable.content);
  const rejectedClaimsRepeated = ledger.claims
    .filter((c) => {
      const status = outcomes.get(c.ref)?.status;
      return (status === "UNSUPPORTED" || status === "CONTRADICTED" || status === "REJECT") && normalizeClaim(c.text).length >= 12;
    })
    .filter((c) => normalizedContent.includes(normalizeClaim(c.text)))
    .map((c) => c.ref);
  const overstatedClaimsRepeated = ledger.claims
    .filter((c) => c.verdicts.some((v) => v.verdict === "OVERSTATED") && normalizeClaim(c.text).length >= 12)
    .filter((c) => normalizedContent.includes(normalizeClaim(c.text)))
    .map((c) => c.ref);
  const unverifiedSubtopics = ledger.subtopics.filter((s) => s.status === "UNVERIFIED").map((s) => s.subtopic);
  const unmarkedUnverifiedSubtopics = unverifiedSubtopics.filter((s) => !marksUnverified(deliverable.content, s));
  const downgradedClaimsCited = ledger.claims
    .filter((c) => outcomes.get(c.ref)?.status === "DOWNGRADE" && (citedClaims.includes(c.ref) || c.evidenceRefs.some((r) => citedRefs.includes(r))))
    .map((c) => c.ref);

  const problems: string[] = [];
  const groundedCount = [...outcomes.values()].filter((o) => o.grounded).length;
  // Once anything is grounded, every factual paragraph has something it can cite.
  // A grounded claim cited by its ref ([C2]) carries a paragraph as its sources' [E#] do.
  const groundedClaimRefs = ledger.claims.filter((c) => outcomes.get(c.ref)?.grounded).map((c) => c.ref);
  const carriers = new Set([...groundedRefs, ...groundedClaimRefs]);
  const refsOrClaimsIn = (text: string) => [...links.refsIn(text), ...citedRefsIn(text).claims];
  const uncitedParagraphs = groundedCount > 0 ? uncitedUnits(deliverable.content, carriers, refsOrClaimsIn) : [];
  if (groundedCount > 0 && citedRefs.length + citedClaims.length === 0) {
    problems.push("The deliverable cites no evidence: cite each load-bearing claim as [E1], or link its source's URL as [title](url).");
  }
  if (unknownRefs.length) problems.push(`Cites refs the ledger does not have: ${unknownRefs.join(", ")}.`);
  const grounded = "grounded: SUPPORTED (or SURVIVES), with a cited source whose check did not fail";
  if (ungroundedRefs.length) problems.push(`Cites evidence no grounded claim rests on (${grounded}): ${ungroundedRefs.join(", ")}.`);
  if (ungroundedClaims.length) problems.push(`Cites claims that are not grounded (${grounded}): ${ungroundedClaims.join(", ")}.`);
  if (rejectedClaimsRepeated.length) problems.push(`Repeats claims the reviewers or critic rejected: ${rejectedClaimsRepeated.join(", ")}.`);
  if (overstatedClaimsRepeated.length) {
    problems.push(`Repeats claims judged OVERSTATED as they were, without the qualifier they need: ${overstatedClaimsRepeated.join(", ")}.`);
  }
  if (uncitedParagraphs.length) {
    const named = uncitedParagraphs.slice(0, 10).map((u) => `${u.kind} ${u.position} ("${u.start}")`);
    problems.push(
      `Cite grounded evidence ([E#], or a link to its source's URL) in every paragraph and list item, or move it under Method, Limitations or Sources: ${named.join("; ")}` +
        `${uncitedParagraphs.length > 10 ? `; and ${uncitedParagraphs.length - 10} more` : ""}.`,
    );
  }
  if (unmarkedUnverifiedSubtopics.length) {
    problems.push(`Does not mark these subtopics as UNVERIFIED (a line naming the subtopic and the word UNVERIFIED): ${unmarkedUnverifiedSubtopics.join("; ")}.`);
  }
  const verified = ledger.evidence.flatMap((e) => (e.verification ? [{ ref: e.ref, verification: e.verification }] : []));
  const sources = verified.length === ledger.evidence.length ? checkSourceIntegrity(deliverable.content, { refs: citedRefs, claims: citedClaims }, { evidence: verified, claims: ledger.claims }, links.refsIn) : null;
  const sourceProblem = sources ? sourceIntegrityProblem(sources) : null;
  if (sourceProblem) problems.push(sourceProblem);
  const linked = unlistedLinksIn(deliverable.content, sourceUrls.map((s) => s.url), deliverable.mediaType);
  const citationUrls = checkCitationUrls(deliverable.citations ?? [], sourceUrls, linked);
  const unlisted = [...linked, ...citationUrls.unlisted];
  for (const problem of [unlistedLinksProblem(unlisted), mismatchedCitationUrlsProblem(citationUrls.mismatched, unlisted.length)]) if (problem) problems.push(problem);
  const quoted = new Map(ledger.evidence.map((e) => [e.ref, { quote: e.quote ?? null }]));
  const numbersNotInQuotes = ledger.claims
    .filter((c) => citedClaims.includes(c.ref) || (outcomes.get(c.ref)?.grounded && c.evidenceRefs.some((r) => citedRefs.includes(r))))
    .flatMap((c) => {
      const numbers = numbersUnquoted(c.text, c.evidenceRefs.flatMap((ref) => quoted.get(ref) ?? []));
      return numbers.length ? [{ claim: c.ref, numbers }] : [];
    })
    .slice(0, NUMBER_FLAGS_IN_REPORT);
  return {
    policy,
    passed: problems.length === 0,
    citedRefs,
    citedClaims,
    unknownRefs,
    ungroundedRefs,
    ungroundedClaims,
    rejectedClaimsRepeated,
    overstatedClaimsRepeated,
    uncitedParagraphs,
    unmarkedUnverifiedSubtopics,
    unverifiedSubtopics,
    downgradedClaimsCited,
    sources,
    numbersNotInQuotes,
    unlistedLinks: reportedLinks(unlisted),
    mismatchedCitationUrls: reportedMismatches(citationUrls.mismatched, unlisted.length),
    problems,
  };
}

/** SHA-256 of the evidence text, hex: the content hash when the caller did not compute one. */
export async function hashEvidence(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
