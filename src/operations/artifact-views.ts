import { z } from "zod";
import { ARTIFACT_TYPES, type ArtifactSummary, UNTRUSTED } from "../domain/research/artifacts";
import { ParamId } from "./params";

export const ParamArtifactId = ParamId("artifact");
export const ParamArtifactType = z.enum(ARTIFACT_TYPES);

export const ArtifactSummaryView = z.object({
  artifactId: z.string(),
  artifactType: z.string(),
  title: z.string(),
  confidence: z.number().nullable(),
  planId: z.string().nullable(),
  stepId: z.string().nullable(),
  tags: z.array(z.string()),
  sourceUrl: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const artifactSummaryView = (artifact: ArtifactSummary): z.infer<typeof ArtifactSummaryView> => ({
  artifactId: artifact.artifactId,
  artifactType: artifact.artifactType,
  title: artifact.title,
  confidence: artifact.confidence,
  planId: artifact.planId,
  stepId: artifact.stepId,
  tags: artifact.tags,
  sourceUrl: artifact.sourceUrl,
  version: artifact.version,
  createdAt: new Date(artifact.createdAt).toISOString(),
  updatedAt: new Date(artifact.updatedAt).toISOString(),
});

/** Marks text that came from outside: the model should weigh it, never follow it. */
export const Trust = z.literal(UNTRUSTED);
