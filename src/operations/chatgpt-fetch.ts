import { z } from "zod";
import { notFound } from "../domain/errors";
import { ARTIFACT_LIMITS, UNTRUSTED } from "../domain/research/artifacts";
import { claimOutcome } from "../domain/research/ledger";
import { defineOperation } from "./operation";
import { ParamId } from "./params";

/** The most text one fetch returns: ChatGPT takes whole documents, but every response stays bounded. */
const FETCH_CHARS = ARTIFACT_LIMITS.readChars * 5;

/** The whole text when it fits; otherwise its start and where to read on. */
const bounded = (text: string, readOn: string) =>
  text.length > FETCH_CHARS ? `${text.slice(0, FETCH_CHARS)}\n[truncated: read the rest with ${readOn} offset ${FETCH_CHARS}]` : text;

/** OpenAI's `fetch` contract: `{id, title, text, url, metadata}` for an id from `search`. */
export const chatgptFetch = defineOperation({
  name: "fetch",
  title: "Fetch research",
  description: "Fetch a stored research document by the id search returned.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ id: ParamId("document") }),
  output: z.object({ id: z.string(), title: z.string(), text: z.string(), url: z.string(), metadata: z.record(z.string(), z.string()) }),
  rest: { method: "get", path: "/chatgpt/fetch/{id}" },
  async handler({ id }, ctx) {
    if (id.startsWith("clm_")) {
      const found = await ctx.services.ledger.getClaim(ctx.principal.orgId, id);
      if (!found) throw notFound("document", id);
      const { claim, evidence } = found;
      const outcome = claimOutcome(claim);
      const sources = evidence.map((e) => `[${e.ref}] ${e.title} — ${e.url}\n${e.quote ?? e.facts}`).join("\n\n");
      return {
        id,
        title: `${claim.ref} (${claim.subtopic})`,
        text: bounded(`${claim.text}\n\nStatus: ${outcome.status}; confidence: ${outcome.finalConfidence ?? "n/a"}\n\nEvidence:\n${sources}`, "get_evidence_ledger"),
        url: `${ctx.origin}/api/v1/plans/${claim.planId}/ledger`,
        metadata: { kind: "claim", status: outcome.status, grounded: String(outcome.grounded), planId: claim.planId, trust: UNTRUSTED } as Record<string, string>,
      };
    }
    if (id.startsWith("out_")) {
      const output = await ctx.services.outputs.get(ctx.principal.orgId, id);
      if (!output) throw notFound("document", id);
      return {
        id,
        title: output.title,
        text: bounded(output.content, "get_research_output"),
        url: `${ctx.origin}/api/v1/outputs/${id}`,
        metadata: { kind: "research output", mediaType: output.mediaType, version: String(output.version), updatedAt: new Date(output.updatedAt).toISOString(), ...(output.planId ? { planId: output.planId } : {}) },
      };
    }
    const artifact = await ctx.services.artifacts.get(ctx.principal.orgId, id);
    if (!artifact) throw notFound("document", id);
    return {
      id,
      title: artifact.title,
      text: bounded(artifact.contentText, "get_artifact"),
      url: artifact.sourceUrl ?? `${ctx.origin}/api/v1/artifacts/${id}`,
      metadata: {
        kind: "artifact",
        artifactType: artifact.artifactType,
        version: String(artifact.version),
        updatedAt: new Date(artifact.updatedAt).toISOString(),
        trust: UNTRUSTED,
        ...(artifact.planId ? { planId: artifact.planId } : {}),
      },
    };
  },
});
