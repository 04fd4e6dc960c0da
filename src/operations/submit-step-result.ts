import { z } from "zod";
import { payloadTooLarge } from "../domain/errors";
import { LIMITS } from "../domain/plans/model";
import { progressOf } from "../domain/plans/status";
import { defineOperation } from "./operation";
import { budgetWarningOf, UsageInput } from "./budget-views";
import { ParamStructured } from "./params";
import { actorOf, insertedStepsOf, ParamPlanId, ParamStepId, StepRef, summarize } from "./plan-views";

const entries = z.array(z.unknown()).max(200);

/** seed 000: all five fields required, empty arrays allowed, omitted fields refused. */
export const StepExecutionReport = z.strictObject({
  thinking: z.string().max(50_000),
  webSearches: entries,
  webFetches: entries,
  otherToolCalls: entries,
  subagents: entries,
});

const byteLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export const submitStepResult = defineOperation({
  name: "submit_step_result",
  title: "Submit step result",
  description:
    "Submit your claimed step's result, confidence 0–1 and stepExecutionReport (all five fields; " +
    "empty arrays allowed). The same submission twice is harmless; a different one for a finished step conflicts.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    stepId: ParamStepId,
    claimId: z.string().min(1).max(64),
    result: ParamStructured,
    confidence: z.number().min(0).max(1),
    stepExecutionReport: StepExecutionReport,
    outputFormattingNotes: z.string().max(4000).optional(),
    usage: UsageInput.optional(),
  }),
  output: z.object({
    stepId: z.string(),
    status: z.string(),
    replayed: z.boolean(),
    planStatus: z.string(),
    progress: z.number(),
    /** Steps a branching condition or review added; left out when none was. */
    insertedSteps: z.array(StepRef).optional(),
    budgetWarning: z.string().optional(),
  }),
  rest: { method: "post", path: "/plans/{planId}/steps/{stepId}/result" },
  core: { description: "Submit your claimed step's result, confidence 0–1 and stepExecutionReport (all five fields; empty arrays allowed).", hide: ["outputFormattingNotes", "usage"] },
  async handler(input, ctx) {
    if (byteLength(input.result) > LIMITS.resultBytes) throw payloadTooLarge(`result is over ${LIMITS.resultBytes} bytes; store large material with store_research and submit a summary.`);
    if (byteLength(input.stepExecutionReport) > LIMITS.reportBytes) throw payloadTooLarge(`stepExecutionReport is over ${LIMITS.reportBytes} bytes.`);
    const { state, replayed, modifications } = await ctx.services.plans.run(
      ctx.principal.orgId,
      input.planId,
      {
        kind: "submit",
        submission: {
          stepId: input.stepId,
          claimId: input.claimId,
          result: input.result,
          resultHash: await sha256(JSON.stringify([input.result, input.confidence])),
          resultSummary: summarize(input.result),
          confidence: input.confidence,
          executionReport: input.stepExecutionReport,
          outputFormattingNotes: input.outputFormattingNotes ?? null,
          ...(input.usage ? { usage: input.usage } : {}),
        },
      },
      actorOf(ctx),
      ctx.now(),
    );
    const step = state.steps.find((candidate) => candidate.stepId === input.stepId);
    return {
      stepId: input.stepId,
      status: step?.status ?? "completed",
      replayed: replayed === true,
      planStatus: state.plan.status,
      progress: progressOf(state.steps),
      ...insertedStepsOf(modifications),
      ...budgetWarningOf(state, ctx.now()),
    };
  },
});
