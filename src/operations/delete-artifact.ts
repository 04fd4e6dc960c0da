import { z } from "zod";
import { forbidden, notFound } from "../domain/errors";
import { hasScope } from "../domain/scopes";
import { defineOperation } from "./operation";
import { ParamArtifactId } from "./artifact-views";

export const deleteArtifact = defineOperation({
  name: "delete_artifact",
  title: "Delete artifact",
  description: "Delete an artifact and all its versions, for good. Allowed to its author and to org admins; audited.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({ artifactId: ParamArtifactId, reason: z.string().min(1).max(1000) }),
  output: z.object({ artifactId: z.string(), deleted: z.boolean() }),
  rest: { method: "delete", path: "/artifacts/{artifactId}" },
  async handler(input, ctx) {
    const { orgId, userId } = ctx.principal;
    const artifact = await ctx.services.artifacts.get(orgId, input.artifactId);
    if (!artifact) throw notFound("artifact", input.artifactId);
    const isAdmin = ctx.principal.role === "admin" && hasScope(ctx.principal.scopes, "org:admin");
    if (artifact.createdBy !== userId && !isAdmin) {
      throw forbidden("Only the artifact's author, or an org admin acting with the org:admin scope, can delete it.");
    }
    const deleted = await ctx.services.artifacts.delete(orgId, input.artifactId, {
      orgId,
      actorUserId: userId,
      actorClientId: ctx.principal.clientId ?? ctx.principal.apiKeyId ?? null,
      action: "artifact.deleted",
      targetType: "artifact",
      targetId: input.artifactId,
      detail: { reason: input.reason, title: artifact.title, versions: artifact.version },
    });
    if (!deleted) throw notFound("artifact", input.artifactId);
    return { artifactId: input.artifactId, deleted: true };
  },
});
