import { z } from "zod";
import { notFound } from "../domain/errors";
import { OUTPUT_LIMITS, type ResearchOutputSummary } from "../domain/research/outputs";
import { defineOperation } from "./operation";
import { ParamOutputId } from "./store-research-output";

export const OutputSummaryView = z.object({
  outputId: z.string(),
  planId: z.string().nullable(),
  executionId: z.string().nullable(),
  title: z.string(),
  mediaType: z.string(),
  formattingInstructions: z.string().nullable(),
  citations: z.array(z.object({ ref: z.string().optional(), title: z.string(), url: z.string().optional() })),
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
  version: output.version,
  createdAt: new Date(output.createdAt).toISOString(),
  updatedAt: new Date(output.updatedAt).toISOString(),
});

export const getResearchOutput = defineOperation({
  name: "get_research_output",
  title: "Get research output",
  description: "Read a stored deliverable (20,000 characters a read; pass offset = nextOffset for more), or an earlier version.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ outputId: ParamOutputId, version: z.number().int().min(1).optional(), offset: z.number().int().min(0).optional() }),
  output: OutputSummaryView.extend({ content: z.string(), offset: z.number(), nextOffset: z.number().nullable() }),
  rest: { method: "get", path: "/outputs/{outputId}" },
  async handler(input, ctx) {
    const output = await ctx.services.outputs.get(ctx.principal.orgId, input.outputId, input.version);
    if (!output) throw notFound("research output", input.version ? `${input.outputId}@${input.version}` : input.outputId);
    const offset = Math.min(input.offset ?? 0, output.content.length);
    const end = offset + OUTPUT_LIMITS.readChars;
    return {
      ...outputSummaryView(output),
      content: output.content.slice(offset, end),
      offset,
      nextOffset: end < output.content.length ? end : null,
    };
  },
});
