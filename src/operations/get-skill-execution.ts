import { z } from "zod";
import { notFound, validationError } from "../domain/errors";
import { defineOperation } from "./operation";
import { ParamExecutionId } from "./params";
import { SkillExecutionView, toSkillExecutionView } from "./skill-execution-view";

/** One metadata field, read whole: its text (a string as is, anything else as JSON), this many characters a read. */
export const FIELD_PAGE_CHARS = 12_000;

export const getSkillExecution = defineOperation({
  name: "get_skill_execution",
  title: "Get skill execution",
  description:
    "A skill execution with its interview metadata; to read a clipped value (metadataClipped) whole, pass it as field.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    executionId: ParamExecutionId,
    field: z.string().min(1).max(200).optional(),
    offset: z.number().int().min(0).optional(),
  }),
  output: SkillExecutionView.extend({ nextOffset: z.number().nullable() }),
  rest: { method: "get", path: "/skill-executions/{executionId}" },
  async handler({ executionId, field, offset }, ctx) {
    const execution = await ctx.services.skillExecutions.get(ctx.principal.orgId, executionId);
    if (!execution) throw notFound("skill execution", executionId);
    const view = toSkillExecutionView(execution);
    if (field === undefined) {
      if (offset !== undefined) throw validationError("offset pages a field: pass field too.", [{ path: "offset", message: "Needs field" }]);
      return { ...view, nextOffset: null };
    }
    if (!Object.hasOwn(execution.metadata, field)) {
      throw validationError("The metadata has no such key; metadata lists the keys.", [{ path: "field", message: "Not a metadata key" }]);
    }
    const value = execution.metadata[field];
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const start = Math.min(offset ?? 0, text.length);
    const end = start + FIELD_PAGE_CHARS;
    const more = end < text.length;
    return {
      ...view,
      metadata: { [field]: text.slice(start, end) },
      metadataClipped: more ? [field] : [],
      nextOffset: more ? end : null,
    };
  },
});
