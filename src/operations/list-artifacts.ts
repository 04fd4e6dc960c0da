import { z } from "zod";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../domain/pagination";
import { defineOperation } from "./operation";
import { ArtifactListView, artifactListView, ParamArtifactType } from "./artifact-views";
import { ParamCursor, ParamId, ParamLimit } from "./params";

export const listArtifacts = defineOperation({
  name: "list_artifacts",
  title: "List artifacts",
  description: "List your organization's artifacts, latest update first.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    artifactType: ParamArtifactType.optional(),
    planId: ParamId("plan").optional(),
    tag: z.string().min(1).max(50).optional(),
    limit: ParamLimit.optional(),
    cursor: ParamCursor.optional(),
  }),
  output: z.object({ artifacts: z.array(ArtifactListView), nextCursor: z.string().nullable() }),
  rest: { method: "get", path: "/artifacts" },
  async handler(input, ctx) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await ctx.services.artifacts.list(
      ctx.principal.orgId,
      { artifactType: input.artifactType, planId: input.planId, tag: input.tag },
      { ...(input.cursor ? { after: decodeCursor(input.cursor) } : {}), limit: limit + 1 },
    );
    const page = toPage(rows, limit, (row) => ({ createdAt: row.updatedAt, id: row.artifactId }));
    return { artifacts: page.items.map(artifactListView), nextCursor: page.nextCursor };
  },
});
