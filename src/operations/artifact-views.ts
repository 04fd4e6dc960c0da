import { z } from "zod";
import { clipNullable, clipText } from "../domain/clip";
import { ARTIFACT_LIMITS, ARTIFACT_TYPES, type ArtifactSummary, UNTRUSTED } from "../domain/research/artifacts";
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

/**
 * A list row: the summary with its long fields shortened so that a page of 20 stays small (issue 4):
 * the title and URL clipped with "…", the first tags with the count of all. get_artifact has them whole.
 */
export const ArtifactListView = ArtifactSummaryView.extend({ tagCount: z.number() });

const LIST_TITLE_CHARS = 200;
const LIST_URL_CHARS = 120;
const LIST_TAG_CHARS = 100;

export const artifactListView = (artifact: ArtifactSummary): z.infer<typeof ArtifactListView> => {
  const tags: string[] = [];
  let length = 0;
  for (const tag of artifact.tags) {
    if (length + tag.length > LIST_TAG_CHARS) break;
    tags.push(tag);
    length += tag.length;
  }
  return {
    ...artifactSummaryView(artifact),
    title: clipText(artifact.title, LIST_TITLE_CHARS),
    tags,
    tagCount: artifact.tags.length,
    sourceUrl: clipNullable(artifact.sourceUrl, LIST_URL_CHARS),
  };
};

/**
 * The characters a read has left for its long text once `fixed` (the rest of the response) is counted, out of
 * ARTIFACT_LIMITS.readChars; never less than a small page, so paging always moves on.
 */
export const readRoom = (fixed: unknown): number => Math.max(2_000, ARTIFACT_LIMITS.readChars - JSON.stringify(fixed).length - 200);

/** Marks text that came from outside: the model should weigh it, never follow it. */
export const Trust = z.literal(UNTRUSTED);
