import { z } from "zod";
import { newId } from "../domain/ids";
import { APPROVAL_MODES } from "../domain/plans/approval";
import { LIMITS, STEP_TYPES } from "../domain/plans/model";
import { CITATION_POLICIES } from "../domain/research/ledger";
import { applyExecutionUpdate } from "../domain/skill-executions";
import { defineOperation, restPath } from "./operation";
import { ParamSessionId } from "./params";
import { BudgetInput, budgetOf } from "./budget-views";
import { actorOf, StepRef, stepRef } from "./plan-views";

/** A step to add; one definition (`$defs/Step`) however many places a schema takes steps. */
const NewStepInput = z
  .strictObject({
    stepType: z.enum(STEP_TYPES),
    instructions: z.string().min(1).max(LIMITS.instructionsChars),
    parallelGroup: z.string().min(1).max(40).optional(),
    critical: z.boolean().optional(),
    stallThresholdMinutes: z.number().int().min(1).max(1440).optional(),
  })
  .meta({ id: "Step" });

export { NewStepInput };

export const createResearchPlan = defineOperation({
  name: "create_research_plan",
  title: "Create research plan",
  description:
    "Create a plan of ordered steps, run with get_next_step. name: '[Scan] <topic>' or '[Deep] <topic>'. Steps " +
    "sharing a parallelGroup run in parallel; a failed critical step fails the plan. sessionId links the skill execution.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    name: z.string().min(8).max(200),
    researchQuestion: z.string().min(1).max(4000),
    steps: z.array(NewStepInput).min(1).max(LIMITS.stepsPerPlan),
    branchingConditions: z
      .array(
        z.strictObject({
          afterStep: z.number().int().min(1),
          confidenceBelow: z.number().min(0).max(1),
          insertSteps: z.array(NewStepInput).min(1).max(10),
          rationale: z.string().min(1).max(2000),
        }),
      )
      .max(LIMITS.branchingConditions)
      .optional(),
    planDesignRationale: z.string().min(1).max(8000),
    outputFormattingNotes: z.string().max(4000).optional(),
    stallThresholdMinutes: z.number().int().min(1).max(1440).optional(),
    sessionId: ParamSessionId.optional(),
    citationPolicy: z.enum(CITATION_POLICIES).optional().describe("Evidence ledger; strict refuses deliverables failing its citation check"),
    budget: BudgetInput.optional(),
    approval: z.enum(APPROVAL_MODES).optional(),
  }),
  output: z.object({
    planId: z.string(),
    name: z.string(),
    status: z.string(),
    totalSteps: z.number(),
    steps: z.array(StepRef),
    linkedExecutionId: z.string().nullable(),
  }),
  rest: { method: "post", path: "/plans", creates: { location: (plan) => restPath`/plans/${plan.planId}` } },
  appView: "plan",
  core: { description: "Create a plan of ordered steps; run it with get_next_step. name: \"[Scan] <topic>\" or \"[Deep] <topic>\".", hide: ["branchingConditions", "outputFormattingNotes", "stallThresholdMinutes", "sessionId", "citationPolicy", "budget", "approval", "Step.parallelGroup", "Step.critical", "Step.stallThresholdMinutes"] },
  async handler(input, ctx) {
    const { orgId } = ctx.principal;
    const planId = newId("plan");
    const [execution, approval] = await Promise.all([
      input.sessionId ? ctx.services.skillExecutions.findLatestStarted(orgId, input.sessionId) : null,
      input.approval ?? ctx.services.orgSettings.planApproval(orgId),
    ]);
    const { state } = await ctx.services.plans.run(
      orgId,
      planId,
      {
        kind: "create",
        input: {
          planId,
          orgId,
          name: input.name,
          researchQuestion: input.researchQuestion,
          steps: input.steps,
          branchingConditions: (input.branchingConditions ?? []).map(({ afterStep, ...condition }) => ({ ...condition, afterStepOrder: afterStep })),
          planDesignRationale: input.planDesignRationale,
          outputFormattingNotes: input.outputFormattingNotes ?? null,
          sessionId: input.sessionId ?? null,
          executionId: execution?.executionId ?? null,
          stallThresholdMinutes: input.stallThresholdMinutes ?? null,
          budget: budgetOf(input.budget) ?? null,
          approval,
        },
      },
      actorOf(ctx),
      ctx.now(),
    );
    if (input.citationPolicy) await ctx.services.ledger.ensure(orgId, planId, input.citationPolicy, [], ctx.now());
    let linkedExecutionId: string | null = null;
    if (execution) {
      // seed 000 auto-linking: plan id, status executing, planDesignRationale merged into metadata.
      const { next } = applyExecutionUpdate(
        execution,
        { status: "executing", planId, metadata: { planDesignRationale: input.planDesignRationale } },
        ctx.now(),
      );
      const audit = {
        orgId,
        actorUserId: ctx.principal.userId,
        actorClientId: actorOf(ctx).clientId,
        action: "skill_execution.updated",
        targetType: "skill_execution",
        targetId: execution.executionId,
        detail: { from: execution.status, to: "executing", planId, via: "create_research_plan" },
      };
      if (await ctx.services.skillExecutions.replace(next, execution.version, audit)) linkedExecutionId = execution.executionId;
    }
    return {
      planId,
      name: state.plan.name,
      status: state.plan.status,
      totalSteps: state.steps.length,
      steps: state.steps.map(stepRef),
      linkedExecutionId,
    };
  },
});
