import { countTokens } from "gpt-tokenizer/encoding/cl100k_base";
import { describe, expect, it } from "vitest";
import { prose, rng, TOPICS } from "../../bench/corpus";
import { type CallTool, worstCaseDefaultResponses } from "../../bench/response-cases";
import { OPERATIONS } from "../../src/operations/registry";
import { ok, REPORT } from "../support/plans";
import { fetchWorker, mcpRequest, readJsonRpc, seedTenant } from "../support/worker";

/** issue 4: every default response stays within this many cl100k tokens, whatever is stored. */
const MAX_TOKENS = 8_000;

/** One tools/call through the real Worker; the text is exactly what the model reads (every text item). */
const callThroughMcp =
  (key: string): CallTool =>
  async (name, args) => {
    const message = await readJsonRpc(await fetchWorker(mcpRequest(key, "tools/call", { name, arguments: args })));
    if (message.error) throw new Error(`${name}: JSON-RPC error ${message.error.code} ${message.error.message}`);
    const result = message.result ?? {};
    const text = (result.content ?? []).map((item) => item.text).join("\n");
    return { isError: result.isError === true, text, body: JSON.parse(text || "null") as Record<string, unknown> };
  };

describe("default response size", () => {
  it(`keeps every operation's default response within ${MAX_TOKENS} cl100k tokens when every record is at its limit`, async () => {
    const { apiKey } = await seedTenant();
    const random = rng(42);
    const topic = TOPICS[3] ?? [];
    const responses = await worstCaseDefaultResponses(callThroughMcp(apiKey), (chars) => prose(random, chars, topic));

    const sizes = [...responses.values()].map((response) => ({ name: response.name, chars: response.text.length, tokens: countTokens(response.text) }));
    console.log(sizes.map((size) => `${size.name}: ${size.tokens} tokens (${size.chars} chars)`).join("\n"));
    const over = sizes.filter((size) => size.tokens > MAX_TOKENS).map((size) => size.name);
    expect.soft(over, "operations whose default response is over the bound").toEqual([]);

    // Every registered operation is covered, so a new one must be added to bench/response-cases.ts.
    const registered = OPERATIONS.map((operation) => operation.name).sort();
    expect([...responses.keys()].sort(), "every registered tool has a worst case in bench/response-cases.ts").toEqual(registered);
  }, 600_000);
});

/** What one get_research_context page holds at detail full (characters of step JSON; src/operations/get-research-context.ts). */
const FULL_PAGE_CHARS = 40_000;
/** What a step result of a deep plan is like: a summary of its work; the substance is in the evidence ledger. */
const RESULT_CHARS = 700;

describe("get_research_context at detail full", () => {
  it("returns the largest templated plan whole in one answer, and pages only a plan beyond the budget", async () => {
    const { apiKey } = await seedTenant();
    const random = rng(7);
    const topic = TOPICS[1] ?? [];
    // The largest plan the templates build: deep decision support at its maximum parameters, with the steps its quality gate inserts.
    const { templates } = (await ok(apiKey, "get_plan_templates", {
      researchType: "decision_support",
      mode: "deep",
      topic: "Should a 40-home cooperative choose ground-source heat pumps over district heating?",
      depth: "exhaustive",
      maxResearchers: 6,
      rounds: 4,
    })) as { templates: { createPlanArguments: { steps: unknown[]; branchingConditions: { insertSteps: unknown[] }[] } & Record<string, unknown> }[] };
    // Its approval gate (large deep templates ask for one) is not what this measures: the plan runs straight through.
    const { branchingConditions, approval: _approval, ...planArguments } = templates[0]?.createPlanArguments ?? { steps: [], branchingConditions: [] };
    const steps = [...planArguments.steps, ...branchingConditions.flatMap((condition) => condition.insertSteps)];
    expect(steps).toHaveLength(22);
    const { planId } = (await ok(apiKey, "create_research_plan", { ...planArguments, steps })) as { planId: string };
    for (;;) {
      const next = (await ok(apiKey, "get_next_step", { planId })) as { status: string; step?: { stepId: string; stepOrder: number }; claimId?: string };
      if (next.status !== "step" || !next.step) break;
      await ok(apiKey, "submit_step_result", {
        planId,
        stepId: next.step.stepId,
        claimId: next.claimId,
        result: { summary: prose(random, RESULT_CHARS, topic) },
        confidence: 0.8,
        stepExecutionReport: REPORT,
      });
    }

    const whole = await callThroughMcp(apiKey)("get_research_context", { planId, detail: "full" });
    const body = whole.body as { steps: { result?: unknown }[]; nextCursor: string | null; truncated: boolean };
    console.log(`get_research_context full, ${steps.length} steps: ${countTokens(whole.text)} tokens (${whole.text.length} chars)`);
    expect(body.steps).toHaveLength(22);
    expect(body.steps.every((step) => step.result !== undefined)).toBe(true);
    expect(body).toMatchObject({ nextCursor: null, truncated: false });
    expect(JSON.stringify(body.steps).length).toBeLessThanOrEqual(FULL_PAGE_CHARS);

    // Beyond the budget, pages by cursor: each within it, every step exactly once.
    const big = (await ok(apiKey, "create_research_plan", {
      ...planArguments,
      name: "[Deep] Beyond one page",
      steps: Array.from({ length: 60 }, (_, i) => ({ stepType: "search", instructions: `Step ${i + 1}: ${prose(random, 1_500, topic)}` })),
      budget: { maxSteps: 64, maxToolCalls: 400 },
    })) as { planId: string };
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = (await ok(apiKey, "get_research_context", { planId: big.planId, detail: "full", ...(cursor ? { cursor } : {}) })) as {
        steps: { stepId: string }[];
        nextCursor: string | null;
      };
      expect(JSON.stringify(page.steps).length).toBeLessThanOrEqual(FULL_PAGE_CHARS);
      seen.push(...page.steps.map((step) => step.stepId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(60);
    expect(seen).toHaveLength(60);
  }, 300_000);
});
