import { z } from "zod";
import { conflict, notFound, sourcesPending, validationError } from "../domain/errors";
import { UNTRUSTED } from "../domain/research/artifacts";
import { SOURCE_CHECK_LIMITS } from "../domain/sources/verification";
import { citedSourceNumbers } from "../domain/sources/recheck";
import { Trust } from "./artifact-views";
import { sendChecks } from "./source-checks";
import { newId } from "../domain/ids";
import { type CitationReport, checkCitations, summarizeSubtopics } from "../domain/research/ledger";
import { type Citation, MEDIA_TYPES, type MediaType, OUTPUT_LIMITS, type ResearchOutput } from "../domain/research/outputs";
import type { WebhookEvent } from "../domain/webhooks/events";
import { defineOperation, type OperationContext, restPath } from "./operation";
import { ParamExecutionId, ParamId } from "./params";
import { answerableRefusal, COMMENT_LIMITS, threadOf } from "../domain/research/comments";

export const ParamOutputId = ParamId("output");

export const storeResearchOutput = defineOperation({
  name: "store_research_output",
  title: "Store research output",
  description:
    "Store a plan's deliverable (content, formatting used, citations); outputId adds a version, answersComments " +
    "resolves those comments. With an evidence ledger, citations ([E3]) are checked; strict plans refuse failing ones.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    outputId: ParamOutputId.optional(),
    planId: ParamId("plan").optional(),
    executionId: ParamExecutionId.optional(),
    title: z.string().min(1).max(OUTPUT_LIMITS.titleChars),
    mediaType: z.enum(MEDIA_TYPES),
    content: z.string().min(1).max(OUTPUT_LIMITS.contentChars),
    formattingInstructions: z.string().max(8000).optional(),
    citations: z
      .array(z.strictObject({ ref: z.string().max(20).optional(), title: z.string().min(1).max(500), url: z.url({ protocol: /^https?$/ }).max(2000).optional() }))
      .max(OUTPUT_LIMITS.citations)
      .optional(),
    answersComments: z.array(ParamId("comment")).max(COMMENT_LIMITS.answered).optional(),
  }),
  output: z.object({
    outputId: z.string(),
    version: z.number(),
    created: z.boolean(),
    /** The comments' threads resolved as answered by this version. */
    answeredComments: z.array(z.string()).optional(),
    /** The citation check: policy, passed, and only the lists that have something in them. */
    verification: z
      .object({
        policy: z.string(),
        passed: z.boolean(),
        citedRefs: z.array(z.string()).optional(),
        citedClaims: z.array(z.string()).optional(),
        unknownRefs: z.array(z.string()).optional(),
        ungroundedRefs: z.array(z.string()).optional(),
        ungroundedClaims: z.array(z.string()).optional(),
        rejectedClaimsRepeated: z.array(z.string()).optional(),
        overstatedClaimsRepeated: z.array(z.string()).optional(),
        uncitedParagraphs: z.array(z.object({ position: z.number(), kind: z.string(), start: z.string() })).optional(),
        unmarkedUnverifiedSubtopics: z.array(z.string()).optional(),
        unverifiedSubtopics: z.array(z.string()).optional(),
        downgradedClaimsCited: z.array(z.string()).optional(),
        /** What Cairn found on the cited pages: passages are the pages' text (trust: untrusted). */
        sources: z
          .object({
            // Only the lists with something in them (an acknowledgement names what the caller must act on).
            unsupported: z.array(z.object({ where: z.string(), refs: z.array(z.string()) })).optional(),
            notVerified: z.array(z.object({ ref: z.string(), status: z.string(), score: z.number().nullable(), passage: z.string().nullable() })).optional(),
            pending: z.array(z.string()).optional(),
            unchecked: z.array(z.object({ ref: z.string(), status: z.string(), reason: z.string().nullable() })).optional(),
            /** Cited pages that do not exist (unreachable, reason `dead: …`): a failed check, as not_found is. */
            dead: z.array(z.object({ ref: z.string(), status: z.string(), reason: z.string().nullable() })).optional(),
            /** Checked against text the assistant supplied (Cairn could not read the page): not Cairn's reading. */
            clientText: z.array(z.string()).optional(),
            trust: Trust,
          })
          .nullish(),
        /** Claims stating numbers none of their cited quotes states (named, not refused). */
        numbersNotInQuotes: z.array(z.object({ claim: z.string(), numbers: z.array(z.string()) })).optional(),
        /** Web addresses the deliverable links (content or citations[].url) that are not sources in the ledger (the first 20; strict refuses them). */
        unlistedLinks: z.array(z.string()).optional(),
        /** Citations pairing a source's ref with another page's URL (the first 10; strict refuses them). */
        mismatchedCitationUrls: z.array(z.object({ ref: z.string(), url: z.string() })).optional(),
        problems: z.array(z.string()).optional(),
      })
      .nullable(),
  }),
  rest: { method: "post", path: "/outputs", creates: { location: (stored) => restPath`/outputs/${stored.outputId}` } },
  core: { description: "Store a plan's deliverable: content in its mediaType, with citations.", hide: ["outputId", "executionId", "formattingInstructions", "answersComments"] },
  async handler(input, ctx) {
    const { orgId, userId } = ctx.principal;
    const now = ctx.now();
    const previous = input.outputId ? await ctx.services.outputs.get(orgId, input.outputId) : null;
    if (input.outputId && !previous) throw notFound("research output", input.outputId);
    if (input.planId) await ctx.services.plans.read(orgId, input.planId, false); // not_found for a plan not in this org
    if (input.executionId && !(await ctx.services.skillExecutions.get(orgId, input.executionId))) {
      throw notFound("skill execution", input.executionId);
    }
    const planId = input.planId ?? previous?.planId ?? null;
    const answered = await answeredThreads(ctx, input.answersComments ?? [], { outputId: previous?.outputId ?? null, planId });
    const checked = planId ? await verifyCitations(ctx, planId, input) : null;
    const verification = checked ? reportOf(checked) : null;
    if (checked?.policy === "strict" && !checked.passed) {
      throw validationError(
        `The deliverable fails plan ${planId}'s strict citation check and was not stored: ${checked.problems.join(" ")}`,
        checked.problems.map((message) => ({ path: "content", message })),
      );
    }
    if (checked?.policy === "strict" && planId) await awaitSourceChecks(ctx, planId, checked);
    const output: ResearchOutput = {
      outputId: previous?.outputId ?? newId("out"),
      orgId,
      planId,
      executionId: input.executionId ?? previous?.executionId ?? null,
      title: input.title,
      mediaType: input.mediaType,
      content: input.content,
      formattingInstructions: input.formattingInstructions ?? null,
      citations: input.citations ?? [],
      version: (previous?.version ?? 0) + 1,
      createdBy: previous?.createdBy ?? userId,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    // A new deliverable is announced (research_output.created): the event is stored with it, then sent.
    const events: WebhookEvent[] =
      previous === null
        ? [
            {
              eventId: newId("msg"),
              orgId,
              type: "research_output.created",
              occurredAt: now,
              data: { outputId: output.outputId, planId, title: output.title, mediaType: output.mediaType, version: output.version, createdBy: userId, citationCheck: verification ? { policy: verification.policy, passed: verification.passed } : null },
            },
          ]
        : [];
    const saved = await ctx.services.outputs.save(output, previous?.version ?? null, events, checked?.citedSources);
    if (!saved) throw conflict(`Output ${output.outputId} got a new version meanwhile; read it and store again.`);
    await ctx.services.webhookEvents.publish(events);
    // The threads this version answers are resolved with a link to it (after it is stored: never to a version that is not).
    await ctx.services.comments.setResolved(orgId, answered, { resolvedAt: now, resolvedBy: userId, answeredBy: { outputId: output.outputId, version: output.version } });
    return {
      outputId: output.outputId,
      version: output.version,
      created: previous === null,
      ...(answered.length ? { answeredComments: answered } : {}),
      verification: verification && withoutEmptyLists(verification) };
  },
});

/** The threads of the comments a version says it answers, checked before anything is stored (comments.ts answerableRefusal). */
async function answeredThreads(ctx: OperationContext, ids: readonly string[], output: { outputId: string | null; planId: string | null }): Promise<string[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const found = await ctx.services.comments.getMany(ctx.principal.orgId, unique);
  const refused = answerableRefusal(unique, found, output);
  if (refused) throw refused;
  return [...new Set(found.map(threadOf))];
}

/** Plans without an evidence ledger have nothing to check against. */
async function verifyCitations(ctx: OperationContext, planId: string, { content, mediaType, citations = [] }: { content: string; mediaType: MediaType; citations?: Citation[] }) {
  const header = await ctx.services.ledger.header(ctx.principal.orgId, planId);
  if (!header) return null;
  const { evidence, claims } = await ctx.services.ledger.read(ctx.principal.orgId, planId, false);
  const report = checkCitations(
    header.citationPolicy,
    { content, mediaType, citations, citationRefs: citations.flatMap((c) => (c.ref ? [c.ref] : [])) },
    { evidence, claims, subtopics: summarizeSubtopics(header.subtopics, evidence, claims, true) },
  );
  const pendingSince = new Map(evidence.filter((e) => e.verification.status === "pending").map((e) => [e.ref, e.createdAt]));
  // What the stored deliverable records: every source it rests on, with its verdict now (unreachable and unchecked ones too).
  const citedSources = citedSourceNumbers({ refs: report.citedRefs, claims: report.citedClaims }, { evidenceRefs: new Set(evidence.map((e) => e.ref)), claims });
  return { ...report, sources: report.sources ? { ...report.sources, trust: UNTRUSTED } : null, pendingSince, citedSources };
}

/** The report as answered (the pending times are for awaitSourceChecks only, the cited sources for the stored record). */
function reportOf({ pendingSince: _, citedSources: __, ...report }: NonNullable<Awaited<ReturnType<typeof verifyCitations>>>) {
  return report;
}

/**
 * A strict deliverable never passes on sources not checked yet: it is refused, retryable, with how long to wait.
 * A check pending far longer than a check takes (its queue message lost) is sent again.
 */
async function awaitSourceChecks(ctx: OperationContext, planId: string, report: CitationReport & { pendingSince: Map<string, number> }): Promise<void> {
  const pending = report.sources?.pending ?? [];
  if (pending.length === 0) return;
  const stale = pending.filter((ref) => (report.pendingSince.get(ref) ?? 0) < ctx.now() - SOURCE_CHECK_LIMITS.stalePendingMs);
  await sendChecks(ctx, planId, stale.map((ref) => Number(ref.slice(1))));
  const wait = SOURCE_CHECK_LIMITS.pendingRetrySeconds;
  throw sourcesPending(
    `Cairn is still checking ${pending.length === 1 ? "source" : "sources"} ${pending.join(", ")} (fetching the page${pending.length === 1 ? "" : "s"} and looking for the quotes); ` +
      `the deliverable was not stored. Checks take seconds to a minute: store it again in ${wait} s.`,
    wait,
  );
}

/**
 * An acknowledgement carries what the caller must act on: the check's empty lists say nothing, and neither does
 * a source report with nothing in it (its lists are trimmed the same way).
 */
function withoutEmptyLists<T extends { policy: string; passed: boolean; sources?: object | null }>(value: T): Pick<T, "policy" | "passed"> & Partial<T> {
  const isEmpty = (item: unknown) => item === null || (Array.isArray(item) && item.length === 0);
  const entries = Object.entries(value).flatMap(([key, item]): [string, unknown][] => {
    if (key !== "sources" || item === null || typeof item !== "object") return isEmpty(item) ? [] : [[key, item]];
    const lists = Object.entries(item).filter(([name, list]) => name !== "trust" && !isEmpty(list));
    return lists.length === 0 ? [] : [[key, Object.fromEntries([...lists, ["trust", (item as { trust?: unknown }).trust]])]];
  });
  return Object.fromEntries(entries) as Pick<T, "policy" | "passed"> & Partial<T>;
}
