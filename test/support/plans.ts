import { callTool } from "./worker";

export const REPORT = { thinking: "Looked at the sources", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

export const steps = (...types: string[]) => types.map((stepType, i) => ({ stepType, instructions: `Do step ${i + 1} (${stepType})` }));

/** Calls a tool and fails the test on a tool error, returning the structured result. */
export async function ok(key: string, name: string, args: unknown): Promise<Record<string, unknown>> {
  const result = await callTool(key, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.body)}`);
  return result.body;
}

export async function createPlan(key: string, extra: Record<string, unknown> = {}) {
  const body = await ok(key, "create_research_plan", {
    name: "[Scan] Vector databases",
    researchQuestion: "Which vector database fits on-device search?",
    steps: steps("search", "analyze", "synthesize"),
    planDesignRationale: "Search, then analyze, then synthesize",
    ...extra,
  });
  return body as { planId: string; steps: { stepId: string; stepOrder: number; stepType: string }[]; linkedExecutionId: string | null };
}

/** Pulls the next step and submits a result for it. */
export async function completeNextStep(key: string, planId: string, confidence = 0.8, workerId?: string) {
  const next = (await ok(key, "get_next_step", { planId, ...(workerId ? { workerId } : {}) })) as { status: string; step: { stepId: string; stepOrder: number }; claimId: string };
  if (next.status !== "step") throw new Error(`expected a step, got ${JSON.stringify(next)}`);
  const submitted = await ok(key, "submit_step_result", {
    planId,
    stepId: next.step.stepId,
    claimId: next.claimId,
    result: { findings: [`finding of step ${next.step.stepOrder}`] },
    confidence,
    stepExecutionReport: REPORT,
  });
  return { next, submitted };
}

/**
 * Waits until the plan's source checks have all run (none pending): a strict deliverable is refused, retryably,
 * while a cited source is still being checked. Sources on unreachable hosts end unreachable, which passes.
 */
export async function sourceChecksSettled(key: string, planId: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    // The compact listing names each source's check by its status.
    const ledger = (await ok(key, "get_evidence_ledger", { planId, limit: 100 })) as { evidence: { verification?: string }[] };
    if (ledger.evidence.every((e) => e.verification !== "pending")) return;
    if (Date.now() > until) throw new Error("source checks still pending");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
