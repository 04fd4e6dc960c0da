import { z } from "zod";
import { payloadTooLarge, validationError } from "../domain/errors";
import { refusedByDatabaseGate } from "../domain/org-data/write-gate";
import { hashEvidence, LEDGER_LIMITS, normalizeSubtopic } from "../domain/research/ledger";
import { defineOperation, type OperationContext, restPath } from "./operation";
import { ParamPlanId, ParamSubtopic } from "./ledger-views";
import { admitSourceChecks, requestSourceChecks, sendChecks } from "./source-checks";
import { refuseBlockedSources } from "./source-policy-check";
import { clientTextsFullMessage } from "../domain/sources/snapshot-quota";
import { SOURCE_CHECK_LIMITS } from "../domain/sources/verification";

const CLIENT_TEXT_CHARS = SOURCE_CHECK_LIMITS.clientTextChars;

export const recordEvidence = defineOperation({
  name: "record_evidence",
  title: "Record evidence",
  description:
    "Add sources or subtopics to a plan's evidence ledger: each source gets a ref (E1, E2, …) to cite; one already " +
    "recorded keeps its ref.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    subtopics: z.array(ParamSubtopic).max(LEDGER_LIMITS.subtopicsPerPlan).optional(),
    evidence: z
      .array(
        z.strictObject({
          url: z.url({ protocol: /^https?$/ }).max(2000),
          title: z.string().min(1).max(500),
          facts: z.string().min(1).max(LEDGER_LIMITS.factsChars),
          quote: z.string().max(LEDGER_LIMITS.factsChars).optional(),
          fetchedAt: z.iso.datetime({ offset: true }).optional(),
          contentHash: z.string().regex(/^[A-Za-z0-9:_-]{8,128}$/).optional(),
          subtopic: ParamSubtopic.optional(),
          query: z.string().max(500).optional(),
          evidenceRef: z.string().min(1).max(200).optional().describe("The search tool's ref for this result"),
          temporalIntent: z.string().min(1).max(50).optional(),
          freshness: z.string().min(1).max(50).optional(),
          removedStaleYears: z.array(z.number().int().min(1900).max(2200)).max(20).optional(),
          sourceText: z
            .string()
            .min(1)
            .max(CLIENT_TEXT_CHARS, `sourceText is at most ${CLIENT_TEXT_CHARS.toLocaleString("en-US")} characters: send the part of the page around the quote`)
            .optional()
            .describe("Text you read of a walled page"),
        }),
      )
      .max(LEDGER_LIMITS.evidencePerCall)
      .optional(),
  }),
  // The caller named the plan: the answer carries what it created or decided.
  output: z.object({
    /** In the order given; no echo of the URLs (up to 2,000 characters each) the caller just sent. */
    evidence: z.array(z.object({ ref: z.string(), duplicate: z.boolean() })),
    /** The plan's subtopics now (the names were sent; get_evidence_ledger lists them). */
    totalSubtopics: z.number(),
    totalEvidence: z.number(),
  }),
  rest: { method: "post", path: "/plans/{planId}/evidence", creates: { location: (_recorded, input) => restPath`/plans/${String(input.planId)}/ledger` } },
  async handler(input, ctx) {
    const { orgId, userId } = ctx.principal;
    const items = input.evidence ?? [];
    const declared = (input.subtopics ?? []).map(normalizeSubtopic);
    if (items.length === 0 && declared.length === 0) throw validationError("Give evidence, subtopics or both.", [{ path: "evidence", message: "Nothing to record" }]);
    await ctx.services.plans.read(orgId, input.planId, false); // not_found for a plan not in this org
    await refuseBlockedSources(ctx, items.map((item, i) => ({ path: `evidence.${i}.url`, url: item.url })));

    const existing = await ctx.services.ledger.header(orgId, input.planId);
    const known = new Set((existing?.subtopics ?? []).map((s) => s.toLowerCase()));
    const added = [...declared, ...items.flatMap((i) => (i.subtopic ? [normalizeSubtopic(i.subtopic)] : []))].filter((s) => {
      const key = s.toLowerCase();
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
    if (known.size > LEDGER_LIMITS.subtopicsPerPlan) {
      throw validationError(`A plan has at most ${LEDGER_LIMITS.subtopicsPerPlan} subtopics; this call would make ${known.size}.`, [{ path: "subtopics", message: "Too many subtopics" }]);
    }
    const counts = await ctx.services.ledger.counts(orgId, input.planId);
    if (counts.evidence + items.length > LEDGER_LIMITS.evidencePerPlan) {
      throw validationError(`A plan's ledger holds at most ${LEDGER_LIMITS.evidencePerPlan} sources; it has ${counts.evidence}.`, [{ path: "evidence", message: "Ledger full" }]);
    }

    await admitSourceChecks(ctx, items.length);

    const clientTexts = await saveClientTexts(ctx, items.map((item) => item.sourceText ?? null));
    const evidence = await Promise.all(
      items.map(async (item, i) => ({
        url: item.url,
        title: item.title,
        facts: item.facts,
        quote: item.quote ?? null,
        fetchedAt: item.fetchedAt ? Date.parse(item.fetchedAt) : null,
        contentHash: item.contentHash ?? (await hashEvidence(`${item.facts}\n${item.quote ?? ""}`)),
        subtopic: item.subtopic ? normalizeSubtopic(item.subtopic) : null,
        query: item.query ?? null,
        search: {
          evidenceRef: item.evidenceRef ?? null,
          temporalIntent: item.temporalIntent ?? null,
          freshness: item.freshness ?? null,
          removedStaleYears: item.removedStaleYears ?? [],
        },
        clientText: clientTexts[i] ?? null,
      })),
    );
    const { header, refs } = await withClientTexts(ctx, clientTexts, async () => ({
      header: await ctx.services.ledger.ensure(orgId, input.planId, null, added, ctx.now()),
      refs: evidence.length ? await ctx.services.ledger.addEvidence(orgId, input.planId, evidence, userId, ctx.now()) : [],
    }));
    // Each new source is checked after this answer: fetched, its quote looked for (verification: pending until then).
    await requestSourceChecks(ctx, input.planId, refs);
    await recheckWithClientText(ctx, input.planId, refs, clientTexts);
    return {
      evidence: refs.map((r) => ({ ref: r.ref, duplicate: r.duplicate })),
      totalSubtopics: header.subtopics.length,
      totalEvidence: counts.evidence + refs.filter((r) => !r.duplicate).length,
    };
  },
});

/**
 * Text sent for a page Cairn may not reach is kept under the org first: a row never names text that is not stored.
 * It counts toward the org's page bytes with Cairn's own snapshots; texts that would pass that cap refuse the whole
 * call before anything is stored or recorded (the caller can record the sources without them).
 */
async function saveClientTexts(ctx: OperationContext, texts: (string | null)[]): Promise<(string | null)[]> {
  const sent = texts.filter((text): text is string => text !== null);
  if (sent.length === 0) return texts.map(() => null);
  const saved = await ctx.services.clientTexts.save(ctx.principal.orgId, sent);
  if ("full" in saved) throw payloadTooLarge(clientTextsFullMessage(saved.full));
  let next = 0;
  return texts.map((text) => (text === null ? null : (saved.sha256s[next++] ?? null)));
}

/**
 * A source recorded again with text the assistant read (after it came back unreachable, say) takes that text and
 * is checked again; the same text again changes nothing.
 */
async function recheckWithClientText(ctx: OperationContext, planId: string, refs: { ref: string; duplicate: boolean }[], clientTexts: (string | null)[]) {
  const now = ctx.now();
  const changed: number[] = [];
  for (const [i, recorded] of refs.entries()) {
    const sha256 = clientTexts[i];
    if (recorded.duplicate && sha256) changed.push(...(await ctx.services.ledger.attachClientText(ctx.principal.orgId, planId, [recorded.ref], sha256, now)));
  }
  await sendChecks(ctx, planId, [...new Set(changed)]);
}

/**
 * The ledger's writes for texts this call stored: when the org's erasure began after the call was admitted, the
 * database refuses the rows, and the texts go too (the erasure may already have emptied the org's bucket).
 */
async function withClientTexts<T>(ctx: OperationContext, clientTexts: (string | null)[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const stored = clientTexts.filter((sha256): sha256 is string => sha256 !== null);
    if (stored.length && refusedByDatabaseGate(error)) await ctx.services.clientTexts.remove(ctx.principal.orgId, stored);
    throw error;
  }
}
