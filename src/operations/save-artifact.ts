import { conflict, notFound, payloadTooLarge, validationError } from "../domain/errors";
import { newId } from "../domain/ids";
import { ARTIFACT_LIMITS, type Artifact, type ArtifactType, normalizeTags } from "../domain/research/artifacts";
import type { OperationContext } from "./operation";

/** What a caller stores: a new artifact, or (with artifactId) a new version of one. */
export interface ArtifactDraft {
  artifactId?: string;
  artifactType: ArtifactType;
  title: string;
  content: unknown;
  contentText: string;
  confidence?: number;
  planId?: string;
  stepId?: string;
  tags?: string[];
  sourceUrl?: string;
}

export interface SavedArtifact {
  artifactId: string;
  version: number;
  created: boolean;
}

/**
 * Stores an artifact for the caller's org the way store_research does: content
 * bounded, a new version on top of the previous one (which is kept), and a
 * conflict when another version landed first.
 */
export async function saveArtifact(ctx: OperationContext, draft: ArtifactDraft): Promise<SavedArtifact> {
  const bytes = new TextEncoder().encode(JSON.stringify(draft.content)).byteLength;
  if (bytes > ARTIFACT_LIMITS.contentBytes) {
    throw payloadTooLarge(`content is ${bytes} bytes; the limit is ${ARTIFACT_LIMITS.contentBytes}. Split it into several artifacts.`);
  }
  const { orgId, userId } = ctx.principal;
  const now = ctx.now();
  const previous = draft.artifactId ? await ctx.services.artifacts.get(orgId, draft.artifactId) : null;
  if (draft.artifactId && !previous) throw notFound("artifact", draft.artifactId);
  await assertPlanReference(ctx, draft.planId ?? previous?.planId ?? null, draft.stepId);
  const artifact: Artifact = {
    artifactId: previous?.artifactId ?? newId("art"),
    orgId,
    artifactType: draft.artifactType,
    title: draft.title,
    content: draft.content,
    contentText: draft.contentText,
    confidence: draft.confidence ?? null,
    planId: draft.planId ?? previous?.planId ?? null,
    stepId: draft.stepId ?? previous?.stepId ?? null,
    tags: normalizeTags(draft.tags ?? []),
    sourceUrl: draft.sourceUrl ?? null,
    version: (previous?.version ?? 0) + 1,
    createdBy: previous?.createdBy ?? userId,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
  const saved = await ctx.services.artifacts.save(artifact, previous?.version ?? null);
  if (!saved) throw conflict(`Artifact ${artifact.artifactId} got a new version meanwhile; read it and store again.`);
  return { artifactId: artifact.artifactId, version: artifact.version, created: previous === null };
}

/**
 * The plan (and step) an artifact names must exist in the caller's org: a
 * reference to another org's plan is refused as not found, like a missing one.
 */
async function assertPlanReference(ctx: OperationContext, planId: string | null, stepId: string | undefined): Promise<void> {
  if (!planId) {
    if (stepId) throw validationError("stepId names a step of a plan: pass planId too.", [{ path: "planId", message: "Required with stepId" }]);
    return;
  }
  const state = await ctx.services.plans.read(ctx.principal.orgId, planId, false);
  if (stepId && !state.steps.some((step) => step.stepId === stepId)) throw notFound("step", stepId);
}
