import { z } from "zod";
import { validationError } from "../domain/errors";
import type { Modification } from "../domain/plans/machine";
import { defineOperation } from "./operation";
import { NewStepInput } from "./create-research-plan";
import { BudgetLimits, budgetOf } from "./budget-views";
import { actorOf, ParamPlanId, ParamStepId, StepRef, stepRef } from "./plan-views";

const ACTIONS = ["add", "remove", "reorder", "update", "fail", "skip", "budget"] as const;

const Input = z.strictObject({
  planId: ParamPlanId,
  action: z.enum(ACTIONS),
  modificationRationale: z.string().min(1).max(4000),
  stepId: ParamStepId.optional().describe("remove, update, fail, skip"),
  steps: z.array(NewStepInput).min(1).max(20).optional().describe("add"),
  afterStepId: ParamStepId.optional().describe("add: insert after it (default: at the end)"),
  stepIds: z.array(ParamStepId).max(60).optional().describe("reorder: every pending step, in the new order"),
  instructions: z.string().min(1).max(8000).optional().describe("update"),
  reason: z.string().min(1).max(2000).optional().describe("fail, skip"),
  budget: BudgetLimits.optional(),
});

function required<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) throw validationError(`${field} is required to ${action}.`, [{ path: field, message: `Required for ${action}` }]);
  return value;
}

function modificationOf(input: z.output<typeof Input>): Modification {
  switch (input.action) {
    case "add":
      return { action: "add", steps: required(input.steps, "steps", "add"), ...(input.afterStepId ? { afterStepId: input.afterStepId } : {}) };
    case "remove":
      return { action: "remove", stepId: required(input.stepId, "stepId", "remove") };
    case "reorder":
      return { action: "reorder", stepIds: required(input.stepIds, "stepIds", "reorder") };
    case "update":
      return { action: "update", stepId: required(input.stepId, "stepId", "update"), instructions: required(input.instructions, "instructions", "update") };
    case "fail":
      return { action: "fail", stepId: required(input.stepId, "stepId", "fail"), reason: required(input.reason, "reason", "fail") };
    case "skip":
      return { action: "skip", stepId: required(input.stepId, "stepId", "skip"), reason: required(input.reason, "reason", "skip") };
    case "budget":
      return { action: "budget", budget: budgetOf(required(input.budget, "budget", "budget")) ?? {} };
  }
}

export const modifyPlan = defineOperation({
  name: "modify_plan",
  title: "Modify plan",
  description:
    "Change a running plan's pending steps or budget, or fail a step (a critical one fails the plan). Each change " +
    "is kept as a plan version with its modificationRationale.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: Input,
  output: z.object({ planId: z.string(), version: z.number(), planStatus: z.string(), steps: z.array(StepRef.extend({ status: z.string() })) }),
  rest: { method: "post", path: "/plans/{planId}/modifications" },
  async handler(input, ctx) {
    const { state } = await ctx.services.plans.run(
      ctx.principal.orgId,
      input.planId,
      { kind: "modify", modification: modificationOf(input), rationale: input.modificationRationale },
      actorOf(ctx),
      ctx.now(),
    );
    return {
      planId: state.plan.planId,
      version: state.plan.version,
      planStatus: state.plan.status,
      steps: state.steps.map((step) => ({ ...stepRef(step), status: step.status })),
    };
  },
});
