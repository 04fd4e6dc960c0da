import { z } from "zod";
import { conflict, notFound } from "../domain/errors";
import { newId } from "../domain/ids";
import { MEDIA_TYPES, OUTPUT_LIMITS, type ResearchOutput } from "../domain/research/outputs";
import { defineOperation } from "./operation";
import { ParamExecutionId, ParamId } from "./params";

export const ParamOutputId = ParamId("output");

export const storeResearchOutput = defineOperation({
  name: "store_research_output",
  title: "Store research output",
  description:
    "Store the deliverable of a plan as delivered: content in its mediaType, the formatting instructions used and " +
    "citations. Pass outputId to store a new version; earlier versions are kept.",
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
  }),
  output: z.object({ outputId: z.string(), version: z.number(), created: z.boolean() }),
  rest: { method: "post", path: "/outputs", status: 201 },
  async handler(input, ctx) {
    const { orgId, userId } = ctx.principal;
    const now = ctx.now();
    const previous = input.outputId ? await ctx.services.outputs.get(orgId, input.outputId) : null;
    if (input.outputId && !previous) throw notFound("research output", input.outputId);
    if (input.planId) await ctx.services.plans.read(orgId, input.planId, false); // not_found for a plan not in this org
    const output: ResearchOutput = {
      outputId: previous?.outputId ?? newId("out"),
      orgId,
      planId: input.planId ?? previous?.planId ?? null,
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
    const saved = await ctx.services.outputs.save(output, previous?.version ?? null);
    if (!saved) throw conflict(`Output ${output.outputId} got a new version meanwhile; read it and store again.`);
    return { outputId: output.outputId, version: output.version, created: previous === null };
  },
});
