import { z } from "zod";
import { defineOperation } from "./operation";
import { ParamLimit } from "./params";
import { ParamPlanId } from "./plan-views";

const Actor = { actorUserId: z.string(), actorClientId: z.string().nullable(), createdAt: z.string() };

export const getPlanHistory = defineOperation({
  name: "get_plan_history",
  title: "Get plan history",
  description:
    "A plan's versions (each change, its rationale, the steps before and after) and audit trail (who, through " +
    "which client, when), newest first. Paged: pass nextCursor as cursor.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    limit: ParamLimit.optional(),
    cursor: z.string().regex(/^\d{1,12}$/, "Pass nextCursor unchanged").optional(),
  }),
  output: z.object({
    versions: z.array(z.object({ version: z.number(), kind: z.string(), rationale: z.string(), before: z.unknown(), after: z.unknown(), ...Actor })),
    audit: z.array(z.object({ action: z.string(), stepId: z.string().nullable(), detail: z.unknown(), ...Actor })),
    nextCursor: z.string().nullable(),
  }),
  rest: { method: "get", path: "/plans/{planId}/history" },
  async handler(input, ctx) {
    const page = await ctx.services.plans.history(ctx.principal.orgId, input.planId, input.cursor ? Number(input.cursor) : null, input.limit ?? 50);
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      versions: page.versions.map((v) => ({ ...v, createdAt: iso(v.createdAt) })),
      audit: page.audit.map(({ seq: _seq, ...entry }) => ({ ...entry, createdAt: iso(entry.createdAt) })),
      nextCursor: page.nextAuditSeq === null ? null : String(page.nextAuditSeq),
    };
  },
});
