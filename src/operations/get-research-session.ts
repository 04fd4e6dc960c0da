import { z } from "zod";
import { RESPONSE_MODES } from "../domain/sessions/model";
import { expiredNote } from "../domain/sessions/store";
import { sessionView } from "../domain/sessions/view";
import { defineOperation } from "./operation";
import { ParamSearchSessionId, SessionView } from "./sequential-search";

export const getResearchSession = defineOperation({
  name: "get_research_session",
  title: "Get research session",
  description:
    "Recover a sequential_search session after context loss, expired ones too. responseMode summary gives the " +
    "last steps, summary and gaps (default: full up to 8 steps).",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    sessionId: ParamSearchSessionId,
    responseMode: z.enum(RESPONSE_MODES).optional(),
  }),
  output: SessionView,
  rest: { method: "get", path: "/search-sessions/{sessionId}" },
  async handler(input, ctx) {
    const session = await ctx.services.sessions.read(ctx.principal.orgId, input.sessionId, ctx.now());
    const { view, notes } = sessionView(session, input.responseMode);
    if (session.expiredAt) notes.unshift(expiredNote(session.expiredAt));
    return { ...view, ...(notes.length > 0 ? { warning: notes.join(" ") } : {}) };
  },
});
