import { z } from "zod";
import { ARTIFACT_LIMITS } from "../domain/research/artifacts";
import { defineOperation, restPath } from "./operation";
import { ParamArtifactId, ParamArtifactType } from "./artifact-views";
import { ParamId, ParamJsonObject } from "./params";
import { saveArtifact } from "./save-artifact";

export const storeResearch = defineOperation({
  name: "store_research",
  title: "Store research",
  description:
    "Store a research artifact (found by search_sources): structured content plus contentText, the searchable " +
    "prose. artifactId stores a new version; earlier versions are kept.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    artifactId: ParamArtifactId.optional(),
    artifactType: ParamArtifactType,
    title: z.string().min(1).max(ARTIFACT_LIMITS.titleChars),
    content: ParamJsonObject,
    contentText: z.string().min(1).max(ARTIFACT_LIMITS.contentTextChars),
    confidence: z.number().min(0).max(1).optional(),
    planId: ParamId("plan").optional(),
    stepId: ParamId("step").optional(),
    tags: z.array(z.string().min(1).max(ARTIFACT_LIMITS.tagChars)).max(ARTIFACT_LIMITS.tags).optional(),
    sourceUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  }),
  output: z.object({ artifactId: z.string(), version: z.number(), created: z.boolean() }),
  rest: { method: "post", path: "/artifacts", creates: { location: (stored) => restPath`/artifacts/${stored.artifactId}` } },
  handler: (input, ctx) => saveArtifact(ctx, input),
});
