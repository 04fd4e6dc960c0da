import { describe, expect, it } from "vitest";
import { createPlan, REPORT, sourceChecksSettled, steps } from "../../test/support/plans";
import { callTool, seedTenant } from "../../test/support/worker";
import { findOperation, OPERATIONS } from "./registry";

describe("the registry", () => {
  it("has unique names and unique REST bindings", () => {
    expect(new Set(OPERATIONS.map((o) => o.name)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((o) => `${o.rest.method} ${o.rest.path}`)).size).toBe(OPERATIONS.length);
  });

  it("returns exactly the declared output shape from every operation", async () => {
    const { apiKey } = await seedTenant();
    const outputs = new Map<string, unknown>();
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await callTool(apiKey, name, args);
      expect(result.isError, `${name}: ${JSON.stringify(result.body)}`).toBe(false);
      outputs.set(name, result.structured);
      return result.body as Record<string, never>;
    };
    const execution = await call("log_skill_execution", { skillName: "research", sessionId: "s", metadata: { topic: "t" } });
    await call("get_skill_execution", { executionId: execution.executionId });
    await call("list_skill_executions", {});
    const { planId } = await createPlan(apiKey, { steps: steps("search", "checkpoint", "synthesize") });
    await call("create_research_plan", { name: "[Scan] Other", researchQuestion: "q", steps: steps("search"), planDesignRationale: "r", sessionId: "s" });
    const first = await call("get_next_step", { planId });
    const step = first.step as unknown as { stepId: string };
    await call("get_step_context", { planId, stepId: step.stepId });
    await call("submit_step_result", { planId, stepId: step.stepId, claimId: first.claimId, result: { ok: true }, confidence: 0.7, stepExecutionReport: REPORT });
    const checkpoint = await call("get_next_step", { planId });
    const checkpointId = (checkpoint.step as unknown as { stepId: string }).stepId;
    await call("request_user_review", { planId, stepId: checkpointId, claimId: checkpoint.claimId, presentation: "p", questions: ["q"] });
    await call("submit_review", { planId, stepId: checkpointId, decision: "approve" });
    await call("modify_plan", { planId, action: "add", steps: steps("critique"), modificationRationale: "r" });
    await call("get_plan_status", { planId });
    await call("list_active_plans", {});
    await call("get_research_context", { planId, detail: "full" });
    await call("get_plan_history", { planId });
    await call("cancel_plan", { planId, reason: "done testing" });
    const search = await call("sequential_search", {
      stepNumber: 1,
      searchStep: "Shape step",
      nextStepNeeded: true,
      researchGoal: "shape check",
      knowledgeGap: "missing shapes",
      sources: [{ url: "https://example.com/shape", title: "Shape", snippet: "shape check" }],
    });
    await call("sequential_search", { sessionId: search.sessionId, stepNumber: 2, searchStep: "Shape step 2", nextStepNeeded: false, depth: "thorough" });
    await call("get_research_session", { sessionId: search.sessionId });
    const artifact = await call("store_research", { artifactType: "finding", title: "Shape check", content: { a: 1 }, contentText: "shape check text", tags: ["t"] });
    await call("get_artifact", { artifactId: artifact.artifactId });
    await call("list_artifacts", {});
    await call("search_sources", { query: "shape" });
    await call("search", { query: "shape" });
    await call("fetch", { id: artifact.artifactId });
    await call("extract_data", { html: "<title>T</title><h1>H</h1><table><tr><th>a</th></tr><tr><td>1</td></tr></table><a href='/x'>x</a>", baseUrl: "https://example.com/", records: [{ a: 1 }], schema: { type: "object" }, storeAs: { title: "Shape dataset" } });
    await call("delete_artifact", { artifactId: artifact.artifactId, reason: "done" });
    const output = await call("store_research_output", { planId, title: "Report", mediaType: "markdown", content: "# Report", citations: [{ title: "Source", url: "https://example.com" }] });
    await call("get_research_output", { outputId: output.outputId });
    await call("list_research_outputs", { planId });
    await call("submit_research_feedback", { phase: "initial", satisfaction: 5, summary: "Great", outputId: output.outputId });
    const templates = await call("get_plan_templates", { mode: "deep", researchType: "general_topic", topic: "Shapes" });
    const deep = await call("create_research_plan", (templates.templates as unknown as { createPlanArguments: Record<string, unknown> }[])[0]?.createPlanArguments ?? {});
    const ledgerPlan = deep.planId as unknown as string;
    await call("record_evidence", { planId: ledgerPlan, subtopics: ["Shape"], evidence: [{ url: "https://example.com/s", title: "S", facts: "Shapes are round", subtopic: "Shape" }] });
    await call("record_claims", { planId: ledgerPlan, claims: [{ subtopic: "Shape", text: "Shapes are round", evidenceRefs: ["E1"] }] });
    await call("record_verdicts", { planId: ledgerPlan, verdicts: [{ claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" }] });
    await call("get_evidence_ledger", { planId: ledgerPlan });
    await sourceChecksSettled(apiKey, ledgerPlan);
    const checked = await callTool(apiKey, "store_research_output", { planId: ledgerPlan, title: "Checked", mediaType: "markdown", content: "Round [E1]." });
    expect(findOperation("store_research_output")?.output.parse(checked.structured)).toEqual(checked.structured);

    expect([...outputs.keys()].sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
    for (const [name, structured] of outputs) {
      // Parsing strips undeclared keys, so equality proves nothing extra and nothing missing.
      expect(findOperation(name)?.output.parse(structured), name).toEqual(structured);
    }
  });
});
