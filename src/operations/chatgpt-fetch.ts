import { z } from "zod";
import { artifactLink, deliverableLink, planLink } from "./people-links";
import { notFound } from "../domain/errors";
import { pageEnd, UNTRUSTED } from "../domain/research/artifacts";
import { claimOutcome } from "../domain/research/ledger";
import { readRoom } from "./artifact-views";
import { SourceCountsView } from "./get-research-output";
import { defineOperation } from "./operation";
import { ParamId } from "./params";

interface Document {
  id: string;
  title: string;
  text: string;
  url: string;
  metadata: Record<string, string>;
  /** A deliverable's cited sources against delivery (get_research_output's `sources`). */
  sources?: z.infer<typeof SourceCountsView>;
}

/**
 * ChatGPT takes whole documents, but every response stays within one read's budget (issue 4): the whole text
 * when it fits, otherwise its start and exactly where to read on.
 */
function bounded(document: Document, readOn: (end: number) => string): Document {
  const room = readRoom({ ...document, text: "" }) - 100;
  const end = pageEnd(document.text, 0, room);
  if (end >= document.text.length) return document;
  return { ...document, text: `${document.text.slice(0, end)}\n[truncated: ${readOn(end)}]` };
}

/** OpenAI's `fetch` contract: `{id, title, text, url, metadata}` for an id from `search`. */
export const chatgptFetch = defineOperation({
  name: "fetch",
  title: "Fetch research",
  description: "Fetch a stored research document by the id search returned.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ id: ParamId("document") }),
  output: z.object({ id: z.string(), title: z.string(), text: z.string(), url: z.string(), metadata: z.record(z.string(), z.string()), sources: SourceCountsView.optional() }),
  rest: { method: "get", path: "/chatgpt/fetch/{id}" },
  async handler({ id }, ctx) {
    if (id.startsWith("clm_")) {
      const found = await ctx.services.ledger.getClaim(ctx.principal.orgId, id);
      if (!found) throw notFound("document", id);
      const { claim, evidence } = found;
      const outcome = claimOutcome(claim);
      const sources = evidence.map((e) => `[${e.ref}] ${e.title} — ${e.url}\n${e.quote ?? e.facts}`).join("\n\n");
      return bounded(
        {
          id,
          title: `${claim.ref} (${claim.subtopic})`,
          text: `${claim.text}\n\nStatus: ${outcome.status}; confidence: ${outcome.finalConfidence ?? "n/a"}\n\nEvidence:\n${sources}`,
          url: planLink(ctx.origin, claim.planId),
          metadata: { kind: "claim", status: outcome.status, grounded: String(outcome.grounded), planId: claim.planId, trust: UNTRUSTED },
        },
        () => `the claim's evidence is in get_evidence_ledger for plan ${claim.planId}`,
      );
    }
    if (id.startsWith("out_")) {
      const output = await ctx.services.outputs.get(ctx.principal.orgId, id);
      if (!output) throw notFound("document", id);
      const sources = await ctx.services.outputs.sourceCounts(ctx.principal.orgId, output.outputId, output.version);
      return bounded(
        {
          id,
          title: output.title,
          text: output.content,
          url: deliverableLink(ctx.origin, id),
          metadata: { kind: "research output", mediaType: output.mediaType, version: String(output.version), updatedAt: new Date(output.updatedAt).toISOString(), ...(output.planId ? { planId: output.planId } : {}) },
          ...(sources ? { sources } : {}),
        },
        (end) => `read the rest with get_research_output offset ${end}`,
      );
    }
    const artifact = await ctx.services.artifacts.get(ctx.principal.orgId, id);
    if (!artifact) throw notFound("document", id);
    return bounded(
      {
        id,
        title: artifact.title,
        text: artifact.contentText,
        url: artifact.sourceUrl ?? artifactLink(ctx.origin, id),
        metadata: {
          kind: "artifact",
          artifactType: artifact.artifactType,
          version: String(artifact.version),
          updatedAt: new Date(artifact.updatedAt).toISOString(),
          trust: UNTRUSTED,
          ...(artifact.planId ? { planId: artifact.planId } : {}),
        },
      },
      (end) => `read the rest with get_artifact offset ${end}`,
    );
  },
});
