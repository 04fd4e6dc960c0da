import { z } from "zod";
import { conflict, notFound, payloadTooLarge } from "../domain/errors";
import { newId } from "../domain/ids";
import { ARTIFACT_LIMITS, type Artifact, normalizeTags } from "../domain/research/artifacts";
import { defineOperation } from "./operation";
import { ParamArtifactId, ParamArtifactType } from "./artifact-views";
import { ParamId } from "./params";

export const storeResearch = defineOperation({
  name: "store_research",
  title: "Store research",
  description:
    "Store a research artifact for your organization (searchable with search_sources): structured content plus " +
    "contentText, the searchable prose. Pass artifactId to store a new version; earlier versions are kept.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    artifactId: ParamArtifactId.optional(),
    artifactType: ParamArtifactType,
    title: z.string().min(1).max(ARTIFACT_LIMITS.titleChars),
    content: z.unknown().refine((value) => value !== undefined, "Required"),
    contentText: z.string().min(1).max(ARTIFACT_LIMITS.contentTextChars),
    confidence: z.number().min(0).max(1).optional(),
    planId: ParamId("plan").optional(),
    stepId: ParamId("step").optional(),
    tags: z.array(z.string().min(1).max(ARTIFACT_LIMITS.tagChars)).max(ARTIFACT_LIMITS.tags).optional(),
    sourceUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  }),
  output: z.object({ artifactId: z.string(), version: z.number(), created: z.boolean() }),
  rest: { method: "post", path: "/artifacts", status: 201 },
  async handler(input, ctx) {
    const bytes = new TextEncoder().encode(JSON.stringify(input.content)).byteLength;
    if (bytes > ARTIFACT_LIMITS.contentBytes) {
      throw payloadTooLarge(`content is ${bytes} bytes; the limit is ${ARTIFACT_LIMITS.contentBytes}. Split it into several artifacts.`);
    }
    const { orgId, userId } = ctx.principal;
    const now = ctx.now();
    const previous = input.artifactId ? await ctx.services.artifacts.get(orgId, input.artifactId) : null;
    if (input.artifactId && !previous) throw notFound("artifact", input.artifactId);
    const artifact: Artifact = {
      artifactId: previous?.artifactId ?? newId("art"),
      orgId,
      artifactType: input.artifactType,
      title: input.title,
      content: input.content,
      contentText: input.contentText,
      confidence: input.confidence ?? null,
      planId: input.planId ?? previous?.planId ?? null,
      stepId: input.stepId ?? previous?.stepId ?? null,
      tags: normalizeTags(input.tags ?? []),
      sourceUrl: input.sourceUrl ?? null,
      version: (previous?.version ?? 0) + 1,
      createdBy: previous?.createdBy ?? userId,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    let saved: boolean;
    try {
      saved = await ctx.services.artifacts.save(artifact, previous?.version ?? null);
    } catch (error) {
      // Another version landed first: the version row's key refused ours.
      if (previous && /UNIQUE|PRIMARY KEY|constraint/i.test(String(error))) saved = false;
      else throw error;
    }
    if (!saved) throw conflict(`Artifact ${artifact.artifactId} got a new version meanwhile; read it and store again.`);
    return { artifactId: artifact.artifactId, version: artifact.version, created: previous === null };
  },
});
