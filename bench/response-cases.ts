/**
 * Worst-case data for one org and every operation called with its default
 * arguments (no limit, offset, cursor or detail), shared by the response-size
 * test (test/workers/response-size.test.ts, in workerd) and `npm run bench:search`
 * (over HTTP). The caller supplies `call`, which runs one MCP `tools/call` and
 * returns the text the model reads; every response is kept, and an operation's
 * size is its largest default response.
 *
 * "Worst case" = every text field at its limit (src/domain/**, the operations'
 * input schemas), with English-like text (bench/corpus.ts), and enough rows to fill
 * every default page. Large payloads are stored on a few records only where a
 * default page cannot show more than one of them (e.g. get_artifact reads one
 * artifact), to keep the seeding affordable.
 *
 * Self-contained (the text generator comes in as `text`), so Node runs it with type stripping and
 * TypeScript checks it without extension-bearing imports.
 */

export interface ToolResult {
  isError: boolean;
  /** The text content the model reads (all text items, joined). */
  text: string;
  /** The JSON of that text. */
  body: Record<string, unknown>;
}

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

export interface DefaultResponse {
  name: string;
  /** The arguments of the largest default response. */
  args: Record<string, unknown>;
  text: string;
  calls: number;
}

/** Paging and detail arguments: a call that passes any of them is not a default call. */
const NON_DEFAULT_ARGS = ["limit", "offset", "cursor", "detail", "version"];


export interface WorstCaseOptions {
  /** Plans beyond the big one, to fill list_active_plans' default page (20). */
  extraPlans?: number;
  /** Steps the big plan runs to completion (its last steps stay pending). At most 59. */
  stepsRun?: number;
  /** store_research calls with maximum content (each up to ~700 KB). */
  bigArtifacts?: number;
  /** More artifacts with maximum titles, tags and URLs but short text, linked to the big plan's steps. */
  smallArtifacts?: number;
}

/**
 * Seeds the worst case through `call` and returns every operation's largest default response.
 * `text(chars)` returns English-like text of that many characters (bench/corpus.ts `prose`).
 */
export async function worstCaseDefaultResponses(call: CallTool, text: (chars: number) => string, options: WorstCaseOptions = {}): Promise<Map<string, DefaultResponse>> {
  const responses = new Map<string, DefaultResponse>();

  const run = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${result.text.slice(0, 600)}`);
    if (!NON_DEFAULT_ARGS.some((key) => key in args)) {
      const previous = responses.get(name);
      if (!previous || result.text.length > previous.text.length) responses.set(name, { name, args, text: result.text, calls: (previous?.calls ?? 0) + 1 });
      else previous.calls++;
    }
    return result.body;
  };
  const str = (value: unknown) => String(value);

  // Needs no data: every template of every research type and mode.
  await run("get_plan_templates", {});

  // ---- Skill executions: a default page (20) + 1, each with metadata at its 64 KiB limit.
  const metadata = (i: number) => {
    const value: Record<string, unknown> = {
      topic: text(500),
      researchType: "competitive_analysis",
      scope: text(2000),
      depthSignals: Array.from({ length: 20 }, () => text(200)),
      decisionContext: text(4000),
      knownContext: text(8000),
      outputMediaType: text(100),
      outputFormattingInstructions: text(4000),
      clarifyingQuestions: [0, 1].map(() => ({ question: text(2000), answer: text(8000) })),
      routingRationale: text(8000),
      delegatedTo: i % 2 ? "deep" : "scan",
      originalQuery: text(6000), // cut to 5000 on the way in
      priorResearchCheck: { decision: "refresh", artifactIds: Array.from({ length: 50 }, (_, n) => `art_${String(n).padStart(25, "0")}`), exchange: text(8000) },
    };
    // Every field at its limit is a little over the 64 KiB of the whole: shorten knownContext to fit. Execution 0
    // is linked to the big plan, which merges the plan's 8,000-character rationale into it: leave room for that.
    const budget = i === 0 ? 56_000 : 64_500;
    const used = new TextEncoder().encode(JSON.stringify({ ...value, originalQuery: "x".repeat(5000) })).byteLength;
    if (used > budget) {
      const cut = Math.ceil((used - budget) / 2) + 50;
      value.knownContext = text(8000 - cut);
      value.routingRationale = text(8000 - cut);
    }
    return value;
  };
  const executions: string[] = [];
  for (let i = 0; i < 21; i++) {
    const body = await run("log_skill_execution", { skillName: text(100).trim() || "research", sessionId: `session-${i}-${"s".repeat(180)}`, metadata: metadata(i) });
    executions.push(str(body.executionId));
  }
  await run("get_skill_execution", { executionId: executions[0] });
  await run("list_skill_executions", {});

  // ---- The big plan: 60 steps of maximum instructions, linked to execution 0 (the original request).
  const stepTypes = ["search", "checkpoint", "extract", "analyze", "critique", "synthesize", "custom"];
  const bigSteps = Array.from({ length: 60 }, (_, i) => ({
    stepType: stepTypes[i % stepTypes.length],
    instructions: text(8000),
    ...(i % 5 === 0 ? { parallelGroup: `group-${i}-${"g".repeat(30)}` } : {}),
  }));
  const plan = await run("create_research_plan", {
    name: `[Deep] ${text(193)}`,
    researchQuestion: text(4000),
    steps: bigSteps,
    planDesignRationale: text(8000),
    outputFormattingNotes: text(4000),
    sessionId: `session-0-${"s".repeat(180)}`,
  });
  const planId = str(plan.planId);
  const planSteps = plan.steps as { stepId: string; stepOrder: number }[];

  // Versions for the history: updates of pending steps with maximum instructions and rationale.
  for (let i = 0; i < 4; i++) {
    const step = planSteps[planSteps.length - 1 - i];
    await run("modify_plan", { planId, action: "update", stepId: step?.stepId, instructions: text(8000), modificationRationale: text(4000) });
  }

  // Run the plan: every answer at its limit where a later default read shows it.
  const stepsRun = Math.min(options.stepsRun ?? 40, 59);
  for (let done = 0; done < stepsRun; done++) {
    const next = await run("get_next_step", { planId });
    const step = next.step as { stepId: string; stepType: string } | undefined;
    if (next.status !== "step" || !step) break;
    if (step.stepType === "checkpoint") {
      await run("request_user_review", {
        planId,
        stepId: step.stepId,
        claimId: next.claimId,
        presentation: text(20_000),
        questions: Array.from({ length: 10 }, () => text(1000)),
      });
      await run("submit_review", { planId, stepId: step.stepId, decision: "approve", feedback: text(8000) });
      continue;
    }
    await run("get_step_context", { planId, stepId: step.stepId });
    await run("submit_step_result", {
      planId,
      stepId: step.stepId,
      claimId: next.claimId,
      result: { findings: Array.from({ length: 8 }, () => text(500)), sources: Array.from({ length: 10 }, (_, n) => `https://example.com/${n}/${"p".repeat(200)}`) },
      confidence: 0.9,
      outputFormattingNotes: text(4000),
      stepExecutionReport: {
        thinking: text(20_000),
        webSearches: Array.from({ length: 20 }, () => ({ query: text(200) })),
        webFetches: Array.from({ length: 20 }, (_, n) => ({ url: `https://example.com/${n}` })),
        otherToolCalls: [],
        subagents: [],
      },
    });
  }
  // The context of the last step sees every earlier one.
  const last = planSteps[planSteps.length - 1];
  await run("get_plan_status", { planId });
  await run("get_research_context", { planId });
  await run("get_plan_history", { planId });

  // Other plans: list_active_plans' default page (20) + 1, names and questions at their limits.
  for (let i = 0; i < (options.extraPlans ?? 20); i++) {
    await run("create_research_plan", {
      name: `[Scan] ${text(193)}`,
      researchQuestion: text(4000),
      steps: [{ stepType: "search", instructions: text(8000) }],
      planDesignRationale: text(8000),
    });
  }
  await run("list_active_plans", {});

  // ---- Artifacts: a few at every limit (content 512 KB, text 200,000), more with long titles, tags and URLs.
  const tags = Array.from({ length: 20 }, (_, n) => `${n}-${"t".repeat(47)}`.slice(0, 50));
  const sourceUrl = `https://example.com/${"u".repeat(1970)}`;
  const artifacts: string[] = [];
  for (let i = 0; i < (options.bigArtifacts ?? 3); i++) {
    // About 500 KB of JSON: sections of prose (the byte limit is 512 KiB).
    const content = { sections: Array.from({ length: 100 }, () => ({ heading: text(100), body: text(4800) })) };
    const body = await run("store_research", {
      artifactType: "source",
      title: text(300),
      content,
      contentText: text(200_000),
      confidence: 0.5,
      planId,
      stepId: planSteps[i % 40]?.stepId,
      tags,
      sourceUrl,
    });
    artifacts.push(str(body.artifactId));
  }
  for (let i = 0; i < (options.smallArtifacts ?? 100); i++) {
    const body = await run("store_research", {
      artifactType: "finding",
      title: text(300),
      content: { note: text(200) },
      contentText: text(2000),
      planId,
      stepId: planSteps[i % 40]?.stepId,
      tags,
      sourceUrl,
    });
    artifacts.push(str(body.artifactId));
  }
  await run("get_artifact", { artifactId: artifacts[0] });
  await run("list_artifacts", {});
  // A word in every artifact (the corpus' most common word), so every default page is full.
  await run("search_sources", { query: "the" });
  await run("search", { query: "the" });
  await run("fetch", { id: artifacts[0] });
  if (last) await run("get_step_context", { planId, stepId: last.stepId });

  // ---- Deliverables: maximum content on one, a default page (20) + 1 with long titles, instructions and many citations.
  const citations = (count: number) => Array.from({ length: count }, (_, n) => ({ ref: `E${n + 1}`, title: text(500), url: `https://example.com/${n}/${"c".repeat(1900)}` }));
  const outputs: string[] = [];
  for (let i = 0; i < 21; i++) {
    const body = await run("store_research_output", {
      planId,
      executionId: executions[0],
      title: text(300),
      mediaType: "markdown",
      content: i === 0 ? text(1_000_000) : text(20_000),
      formattingInstructions: text(8000),
      citations: citations(i === 0 ? 500 : 50),
    });
    outputs.push(str(body.outputId));
  }
  await run("get_research_output", { outputId: outputs[0] });
  await run("list_research_outputs", {});
  await run("fetch", { id: outputs[0] });
  await run("search_sources", { query: "the" });

  await run("submit_research_feedback", {
    phase: "closing",
    satisfaction: 4,
    summary: text(8000),
    improvementSuggestions: Array.from({ length: 20 }, () => text(2000)),
    followUpRequested: true,
    planId,
    outputId: outputs[0],
    executionId: executions[0],
  });

  // extract_data at its input limit: a 1 MB page of tables, links and headings, and records with a schema.
  const rows = Array.from({ length: 200 }, (_, r) => `<tr>${Array.from({ length: 10 }, (_, c) => `<td>${text(80).replace(/[<>&]/g, "")} ${r}.${c}</td>`).join("")}</tr>`).join("");
  const links = Array.from({ length: 500 }, (_, n) => `<a href="https://example.com/${n}/${"l".repeat(200)}">${text(300).replace(/[<>&]/g, "")}</a>`).join("");
  const headings = Array.from({ length: 200 }, () => `<h2>${text(200).replace(/[<>&]/g, "")}</h2>`).join("");
  let html = `<html><head><title>${text(300)}</title><meta name="description" content="${text(1000).replace(/"/g, "")}"></head><body>${headings}${links}`;
  while (html.length < 1_000_000 - rows.length - 100) html += `<table><tr><th>${"h".repeat(40)}</th></tr>${rows}</table>`;
  html += "</body></html>";
  await run("extract_data", { html, baseUrl: "https://example.com/", records: Array.from({ length: 100 }, (_, n) => ({ n, text: text(500) })), schema: { type: "object", required: ["n", "missing"] } });

  // ---- The evidence ledger of a deep plan, every list at its limit.
  const deep = await run("create_research_plan", {
    name: `[Deep] ${text(193)}`,
    researchQuestion: text(4000),
    steps: [{ stepType: "analyze", instructions: text(8000) }],
    planDesignRationale: text(8000),
    citationPolicy: "strict",
  });
  const deepId = str(deep.planId);
  const subtopics = Array.from({ length: 20 }, (_, n) => `${n} ${text(115)}`.slice(0, 120));
  for (let round = 0; round < 2; round++) {
    await run("record_evidence", {
      planId: deepId,
      subtopics,
      evidence: Array.from({ length: 50 }, (_, n) => ({
        url: `https://example.com/${round}/${n}/${"e".repeat(1960)}`,
        title: text(500),
        facts: text(4000),
        quote: text(4000),
        fetchedAt: "2026-11-20T10:00:00Z",
        subtopic: subtopics[n % 20],
        query: text(500),
      })),
    });
  }
  for (let round = 0; round < 2; round++) {
    await run("record_claims", {
      planId: deepId,
      claims: Array.from({ length: 50 }, (_, n) => ({
        subtopic: subtopics[n % 20],
        text: `${round}.${n} ${text(1990)}`,
        evidenceRefs: Array.from({ length: 20 }, (_, r) => `E${((n + r) % 100) + 1}`),
        workerId: `worker-${"w".repeat(90)}`,
        confidence: 0.7,
        highStakes: true,
      })),
    });
  }
  await run("record_verdicts", {
    planId: deepId,
    verdicts: Array.from({ length: 100 }, (_, n) => ({
      claim: `C${n + 1}`,
      kind: "reviewer",
      judge: `reviewer-${"r".repeat(90)}`,
      shard: (n % 2) + 1,
      verdict: "SUPPORTED",
      reasoning: text(2000),
      confidence: 0.8,
    })),
  });
  await run("record_verdicts", {
    planId: deepId,
    verdicts: Array.from({ length: 100 }, (_, n) => ({ claim: `C${n + 1}`, kind: "critic", judge: `critic-${"c".repeat(90)}`, verdict: "DOWNGRADE", reasoning: text(2000), confidence: 0.5 })),
  });
  await run("get_evidence_ledger", { planId: deepId });

  // ---- A sequential search session: every step at its limits, up to the default full view (8 steps) and beyond.
  const stepArgs = (n: number) => ({
    stepNumber: n,
    searchStep: text(4000),
    nextStepNeeded: true,
    depth: "standard",
    sources: Array.from({ length: 10 }, (_, k) => ({ url: `https://example.com/s/${n}/${k}/${"s".repeat(1960)}`, title: text(300), snippet: text(1000) })),
    knowledgeGap: text(2000),
    reasoning: text(2000),
    confidence: "medium",
    sessionSummary: text(4000),
    rejectedApproaches: text(2000),
    totalStepsEstimate: 40,
  });
  const first = await run("sequential_search", { ...stepArgs(1), researchGoal: text(1000) });
  const sessionId = str(first.sessionId);
  for (let n = 2; n <= 30; n++) {
    await run("sequential_search", { sessionId, ...stepArgs(n), ...(n === 9 ? { isRevision: true, revisesStep: 3 } : {}), ...(n === 12 ? { branchId: "b".repeat(64), branchFromStep: 4 } : {}) });
    if (n === 8) await run("get_research_session", { sessionId });
  }
  await run("get_research_session", { sessionId });

  await run("cancel_plan", { planId: str((await run("create_research_plan", { name: "[Scan] To cancel", researchQuestion: "q", steps: [{ stepType: "search", instructions: "i" }], planDesignRationale: "r" })).planId), reason: text(2000) });
  await run("delete_artifact", { artifactId: artifacts[artifacts.length - 1], reason: text(1000) });
  return responses;
}
