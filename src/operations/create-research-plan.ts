import { z } from "zod";
import { newId } from "../domain/ids";
import { APPROVAL_MODES } from "../domain/plans/approval";
import { validationError } from "../domain/errors";
import { LIMITS, STEP_TYPES } from "../domain/plans/model";
import { createTerms } from "../domain/plans/spend-gate";
import { derivePlanStatusWithReviews } from "../domain/plans/status";
import { MODES, planTemplate, RESEARCH_TYPES } from "../domain/plans/templates";
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

const CreatePlanInput = z.strictObject({
  template: z
    .strictObject({
      researchType: z.enum(RESEARCH_TYPES),
      mode: z.enum(MODES),
      depth: z.enum(["standard", "exhaustive"]).optional(),
      maxResearchers: z.number().int().min(1).max(6).optional(),
      rounds: z.number().int().min(1).max(4).optional(),
      output: z.enum(["report", "brief"]).optional(),
    })
    .optional(),
  topic: z.string().trim().min(1).max(200).optional(),
  name: z.string().min(8).max(200).optional(),
  researchQuestion: z.string().min(1).max(4000).optional(),
  steps: z.array(NewStepInput).min(1).max(LIMITS.stepsPerPlan).optional(),
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
  planDesignRationale: z.string().min(1).max(8000).optional(),
  outputFormattingNotes: z.string().max(4000).optional(),
  stallThresholdMinutes: z.number().int().min(1).max(1440).optional(),
  sessionId: ParamSessionId.optional(),
  citationPolicy: z.enum(CITATION_POLICIES).optional().describe("Evidence ledger; strict refuses deliverables failing its citation check"),
  budget: BudgetInput.optional(),
  approval: z.enum(APPROVAL_MODES).optional(),
});

export const createResearchPlan = defineOperation({
  name: "create_research_plan",
  title: "Create research plan",
  description:
    "Create a plan of ordered steps, run with get_next_step; template + topic builds it (given fields " +
    "win). name: '[Scan] <topic>' or '[Deep] <topic>'. Steps of one parallelGroup run together; a " +
    "failed critical step fails the plan. sessionId links the skill execution.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: CreatePlanInput,
  output: z.object({
    planId: z.string(),
    /** Present when the plan waits for approval (get_next_step answers awaiting_review until a person decides). */
    status: z.literal("awaiting_review").optional(),
    totalSteps: z.number(),
    /** The steps created, when the caller wrote them; a plan built from a template hands its steps out by get_next_step. */
    steps: z.array(StepRef).optional(),
    linkedExecutionId: z.string().nullable(),
  }),
  rest: { method: "post", path: "/plans", creates: { location: (plan) => restPath`/plans/${plan.planId}` } },
  appView: "plan",
  core: { description: "Create a plan of ordered steps; run it with get_next_step. name: \"[Scan] <topic>\" or \"[Deep] <topic>\".", hide: ["template", "topic", "branchingConditions", "outputFormattingNotes", "stallThresholdMinutes", "sessionId", "citationPolicy", "budget", "approval", "Step.parallelGroup", "Step.critical", "Step.stallThresholdMinutes"], require: ["name", "researchQuestion", "steps", "planDesignRationale"] },
  async handler(given, ctx) {
    const input = withTemplate(given);
    const { orgId } = ctx.principal;
    const planId = newId("plan");
    const [execution, orgApproval] = await Promise.all([
      input.sessionId ? ctx.services.skillExecutions.findLatestStarted(orgId, input.sessionId) : null,
      ctx.services.orgSettings.planApproval(orgId),
    ]);
    // May this plan spend: the one gate every plan-making path asks (its approval and budget).
    const terms = createTerms(orgApproval, { approval: input.approval, budget: budgetOf(input.budget) });
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
          budget: terms.budget,
          approval: terms.approval,
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
    // The caller knows the name and status it asked for: only what was created comes back.
    return {
      planId,
      // Said only when the caller must act on it: the plan waits for a person's approval before any step.
      ...(derivePlanStatusWithReviews(state.plan, state.steps) === "awaiting_review" ? { status: "awaiting_review" as const } : {}),
      totalSteps: state.steps.length,
      ...(given.template && !given.steps ? {} : { steps: state.steps.map(stepRef) }),
      linkedExecutionId,
    };
  },
});

type CreateInput = z.infer<typeof CreatePlanInput>;
type PlanArguments = Omit<CreateInput, "template" | "topic" | "name" | "researchQuestion" | "steps" | "planDesignRationale"> & {
  name: string;
  researchQuestion: string;
  steps: NonNullable<CreateInput["steps"]>;
  planDesignRationale: string;
};

/**
 * The plan's arguments: the template's (built here, so it never travels to the model and back) with every field the
 * caller gave in its place; without a template, the caller's, which must then name the plan, its question, steps and
 * rationale.
 */
function withTemplate(input: CreateInput): PlanArguments {
  const { template, topic, ...given } = input;
  const base = template
    ? (() => {
        const subject = topic ?? given.researchQuestion?.slice(0, 200).trim();
        if (!subject) throw validationError("A plan from a template needs its topic.", [{ path: "topic", message: "Required with template" }]);
        const { researchType, mode, ...parameters } = template;
        return planTemplate(researchType, mode, subject, parameters).createPlanArguments;
      })()
    : {};
  const merged = { ...base, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) } as Partial<PlanArguments>;
  const missing = (["name", "researchQuestion", "steps", "planDesignRationale"] as const).filter((field) => merged[field] === undefined);
  if (missing.length > 0) {
    throw validationError(
      `A plan needs ${missing.join(", ")}, or a template and topic to build them from.`,
      missing.map((path) => ({ path, message: "Required without template" })),
    );
  }
  return merged as PlanArguments;
}
