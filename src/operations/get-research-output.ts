import { z } from "zod";
import { notFound } from "../domain/errors";
import { clipNullable } from "../domain/clip";
import { pageEnd } from "../domain/research/artifacts";
import type { Citation, ResearchOutputSummary } from "../domain/research/outputs";
import { readRoom } from "./artifact-views";
import { defineOperation, type OperationContext } from "./operation";
import { ChangesView } from "./series-views";
import { deliverableChanges, type DeliverableChanges } from "../domain/research/changes";
import { whatDeliverableSaid } from "../domain/research/deliverable-said";
import type { ResearchOutput } from "../domain/research/outputs";
import { ParamOutputId } from "./store-research-output";
import { OpenCommentsView, openCommentsOnOutput } from "./comment-views";

const CitationView = z.object({ ref: z.string().optional(), title: z.string(), url: z.string().optional() });

export const OutputSummaryView = z.object({
  outputId: z.string(),
  planId: z.string().nullable(),
  executionId: z.string().nullable(),
  title: z.string(),
  mediaType: z.string(),
  formattingInstructions: z.string().nullable(),
  citations: z.array(CitationView),
  citationCount: z.number(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const outputSummaryView = (output: ResearchOutputSummary): z.infer<typeof OutputSummaryView> => ({
  outputId: output.outputId,
  planId: output.planId,
  executionId: output.executionId,
  title: output.title,
  mediaType: output.mediaType,
  formattingInstructions: output.formattingInstructions,
  citations: output.citations,
  citationCount: output.citations.length,
  version: output.version,
  createdAt: new Date(output.createdAt).toISOString(),
  updatedAt: new Date(output.updatedAt).toISOString(),
});

/**
 * How the ledger sources the deliverable cites stand now against delivery (re-checked daily): verified now;
 * changed (verified at delivery, the quote is no longer on the page); gone (verified at delivery, the page is
 * unreachable now); unverified (everything else).
 */
export const SourceCountsView = z.object({ total: z.number(), verified: z.number(), changed: z.number(), gone: z.number(), unverified: z.number() });

/** What a page of content shows of the instructions and citations; part "citations" has them whole. */
const INSTRUCTIONS_PREVIEW_CHARS = 1_000;
const CITATIONS_PREVIEW_CHARS = 3_000;

/** The citations from `start` whose JSON fits `room` characters (at least one, so paging moves on). */
function citationPage(citations: readonly Citation[], start: number, room: number): Citation[] {
  const page: Citation[] = [];
  let used = 0;
  for (const citation of citations.slice(start)) {
    used += JSON.stringify(citation).length + 1;
    if (used > room && page.length > 0) break;
    page.push(citation);
  }
  return page;
}

export const getResearchOutput = defineOperation({
  name: "get_research_output",
  title: "Get research output",
  description:
    'Read a deliverable or a version; part "citations" pages every citation and the full formattingInstructions.',
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    outputId: ParamOutputId,
    version: z.number().int().min(1).optional(),
    offset: z.number().int().min(0).optional(),
    part: z.literal("citations").optional(),
  }),
  output: OutputSummaryView.extend({
    content: z.string(),
    offset: z.number(),
    nextOffset: z.number().nullable(),
    note: z.string().optional(),
    sources: SourceCountsView.optional(),
    previousOutputId: z.string().optional(),
    changes: ChangesView.optional(),
    comments: OpenCommentsView.optional(),
  }),
  rest: { method: "get", path: "/outputs/{outputId}" },
  async handler(input, ctx) {
    const output = await ctx.services.outputs.get(ctx.principal.orgId, input.outputId, input.version);
    if (!output) throw notFound("research output", input.version ? `${input.outputId}@${input.version}` : input.outputId);
    const sources = await ctx.services.outputs.sourceCounts(ctx.principal.orgId, output.outputId, output.version);
    const summary = { ...outputSummaryView(output), ...(sources ? { sources } : {}) };
    const all = output.citations;

    if (input.part === "citations") {
      const offset = Math.min(input.offset ?? 0, all.length);
      // The instructions come whole with the first page of citations, which share the rest of the read.
      const fixed = { ...summary, citations: [], formattingInstructions: offset === 0 ? output.formattingInstructions : null };
      const citations = citationPage(all, offset, readRoom(fixed));
      const end = offset + citations.length;
      return { ...fixed, citations, content: "", offset, nextOffset: end < all.length ? end : null };
    }

    // A page of content with a preview of the instructions and the first citations; part "citations" has the rest.
    const instructions = output.formattingInstructions;
    const citations = citationPage(all, 0, CITATIONS_PREVIEW_CHARS);
    const clipped = (instructions?.length ?? 0) > INSTRUCTIONS_PREVIEW_CHARS || citations.length < all.length;
    const note = clipped
      ? `Shows ${citations.length} of ${all.length} citations and ${instructions && instructions.length > INSTRUCTIONS_PREVIEW_CHARS ? "the start of " : ""}formattingInstructions: part "citations" has them whole.`
      : undefined;
    const offset = Math.min(input.offset ?? 0, output.content.length);
    // A run of a scheduled series says what changed since the previous run's deliverable, with its first page.
    const [comparison, comments] = offset === 0 ? await Promise.all([changesSincePreviousRun(ctx, output), openCommentsOnOutput(ctx, output.outputId)]) : [null, null];
    const fixed = {
      ...summary,
      formattingInstructions: clipNullable(instructions, INSTRUCTIONS_PREVIEW_CHARS),
      citations,
      ...(note ? { note } : {}),
      ...(comparison ?? {}),
      ...(comments ? { comments } : {}),
    };
    const end = pageEnd(output.content, offset, readRoom(fixed));
    return { ...fixed, content: output.content.slice(offset, end), offset, nextOffset: end < output.content.length ? end : null };
  },
});

/** The previous run's deliverable and what changed since it, for a deliverable of a series run; null otherwise. */
export async function changesSincePreviousRun(
  ctx: { principal: Pick<OperationContext["principal"], "orgId">; services: OperationContext["services"] },
  output: ResearchOutput,
): Promise<{ previousOutputId: string; changes: DeliverableChanges } | null> {
  if (!output.planId) return null;
  const { orgId } = ctx.principal;
  const previousRef = await ctx.services.series.previousDeliverable(orgId, output.planId);
  if (!previousRef) return null;
  const [previous, before, after] = await Promise.all([
    ctx.services.outputs.get(orgId, previousRef.outputId),
    ctx.services.ledger.read(orgId, previousRef.planId, false),
    ctx.services.ledger.read(orgId, output.planId, false),
  ]);
  if (!previous) return null;
  // Each side is what that deliverable said: the rest of its plan's ledger is not part of the comparison.
  const changes = deliverableChanges(whatDeliverableSaid(previous, before), whatDeliverableSaid(output, after));
  return { previousOutputId: previous.outputId, changes };
}
