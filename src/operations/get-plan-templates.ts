import { z } from "zod";
import { MODES, planTemplates, RESEARCH_TYPES } from "../domain/plans/templates";
import { defineOperation } from "./operation";

export const getPlanTemplates = defineOperation({
  name: "get_plan_templates",
  title: "Get plan templates",
  description:
    "Plan templates per research type and mode, with createPlanArguments ready for create_research_plan. depth, " +
    "maxResearchers, rounds and output size a deep plan (defaults standard, 3, 2, report).",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    researchType: z.enum(RESEARCH_TYPES).optional(),
    mode: z.enum(MODES).optional(),
    topic: z.string().trim().min(1).max(200).optional(),
    depth: z.enum(["standard", "exhaustive"]).optional(),
    maxResearchers: z.number().int().min(1).max(6).optional(),
    rounds: z.number().int().min(1).max(4).optional(),
    output: z.enum(["report", "brief"]).optional(),
  }),
  output: z.object({
    templates: z.array(
      z.object({
        templateId: z.string(),
        researchType: z.string(),
        mode: z.string(),
        description: z.string(),
        parameters: z.object({ depth: z.string(), maxResearchers: z.number(), rounds: z.number(), output: z.string() }).nullable(),
        createPlanArguments: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
  rest: { method: "get", path: "/plan-templates" },
  async handler(input) {
    const { researchType, mode, topic, ...parameters } = input;
    return { templates: planTemplates({ researchType, mode, topic, parameters }) };
  },
});
