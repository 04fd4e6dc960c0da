/**
 * A deterministic stand-in for the assistant (no LLM): it plays the skills' part through a real
 * MCP client, one tool call at a time, and fails loudly on any tool error it did not expect.
 */

/** seed 000: every submission carries the five report fields (empty arrays allowed). */
const REPORT = { thinking: "", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

export interface ToolCaller {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

export interface WorkStep {
  stepId: string;
  stepOrder: number;
  stepType: string;
  instructions: string;
}

export type NextStep =
  | { status: "step"; step: WorkStep; claimId: string }
  | { status: "plan_complete" | "awaiting_review" | "plan_failed" | "waiting"; [key: string]: unknown };

export class ScriptedAssistant {
  /** Every tool this assistant called, in order: the test checks the lifecycle used the tools it should. */
  readonly calls: string[] = [];

  constructor(
    readonly client: ToolCaller,
    readonly name: string,
  ) {}

  async tryCall(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, unknown> }> {
    this.calls.push(name);
    const result = (await this.client.callTool({ name, arguments: args })) as ToolResult;
    const text = result.content?.find((c) => c.type === "text")?.text ?? "{}";
    return { isError: result.isError === true, body: result.structuredContent ?? (JSON.parse(text) as Record<string, unknown>) };
  }

  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T> {
    const { isError, body } = await this.tryCall(name, args);
    if (isError) throw new Error(`${this.name}: ${name} failed: ${JSON.stringify(body)}`);
    return body as T;
  }

  next(planId: string, workerId?: string): Promise<NextStep> {
    return this.call<NextStep>("get_next_step", { planId, ...(workerId ? { workerId } : {}) });
  }

  submit(planId: string, step: WorkStep, claimId: string, result: Record<string, unknown>, confidence = 0.8) {
    return this.call<{ status: string; planStatus: string }>("submit_step_result", {
      planId,
      stepId: step.stepId,
      claimId,
      result,
      confidence,
      stepExecutionReport: { ...REPORT, thinking: `${this.name} executed step ${step.stepOrder} (${step.stepType})` },
    });
  }

  /**
   * The scan skill's loop for one step: read the context after step 1, do the work (here: store
   * an artifact of the step's kind about the topic), submit.
   */
  async executeScanStep(planId: string, step: WorkStep, claimId: string, topic: string): Promise<string> {
    if (step.stepOrder > 1) await this.call("get_step_context", { planId, stepId: step.stepId });
    const artifactType = { search: "source", extract: "dataset", analyze: "analysis", critique: "analysis", synthesize: "summary" }[step.stepType] ?? "note";
    const artifact = await this.call<{ artifactId: string }>("store_research", {
      artifactType,
      title: `${topic}: step ${step.stepOrder} ${step.stepType}`,
      content: { step: step.stepOrder, points: [`${topic} point ${step.stepOrder}`] },
      contentText: `${topic}. Findings of the ${step.stepType} step ${step.stepOrder}: ${topic} works well in cold climates with proper sizing.`,
      confidence: 0.8,
      planId,
      stepId: step.stepId,
      tags: ["lifecycle"],
      ...(step.stepType === "search" ? { sourceUrl: `https://example.org/${step.stepOrder}` } : {}),
    });
    await this.submit(planId, step, claimId, { findings: [`${topic} finding ${step.stepOrder}`], artifactIds: [artifact.artifactId] });
    return artifact.artifactId;
  }

  /** Pulls and executes steps until the plan completes; returns the artifacts stored. */
  async runScanPlan(planId: string, topic: string): Promise<string[]> {
    const artifacts: string[] = [];
    for (let guard = 0; guard < 100; guard++) {
      const next = await this.next(planId);
      if (next.status === "plan_complete") return artifacts;
      if (next.status !== "step") throw new Error(`${this.name}: unexpected ${JSON.stringify(next)}`);
      artifacts.push(await this.executeScanStep(planId, next.step, next.claimId, topic));
    }
    throw new Error("plan did not complete in 100 steps");
  }
}
