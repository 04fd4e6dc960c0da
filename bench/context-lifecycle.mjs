/**
 * The scripted assistant of `npm run bench:context`: one scan and one deep research
 * run played the way the skills instruct, with the sizes a real run has (step
 * results of ~150 words, sources with facts and quotes, an 800-word report that
 * passes the strict citation check). Every call goes through a `Meter`, which
 * counts the cl100k tokens of its arguments and of the text content it returns.
 */
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { mcpCall } from "./cases.mjs";

export const tokens = (value) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;

const WORDS =
  "heat pumps borehole district network tariff capital cost maintenance seasonal performance coefficient winter load grid electricity price subsidy lifetime cooperative board decision evidence study measured field trial".split(
    " ",
  );
/** Deterministic filler prose of `count` words (a model's text is not compressible either). */
export function prose(count, seed = 1) {
  let state = seed;
  const out = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[state % WORDS.length]);
  }
  return `${out.join(" ")}.`;
}

const REPORT = (thinking) => ({ thinking, webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] });

/** Counts what one assistant sends and receives, per tool. */
export class Meter {
  constructor(publicUrl, credential, path = "/mcp") {
    Object.assign(this, { publicUrl, credential, path });
    this.perTool = new Map();
    this.calls = [];
    /** The skill whose instructions the calls follow (research, then an executor, then research-output). */
    this.phase = "research";
  }

  async call(name, args) {
    for (let attempt = 0; ; attempt++) {
      const result = await mcpCall(this.publicUrl, this.credential, "tools/call", { name, arguments: args }, this.path);
      const text = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
      // A strict deliverable waits for Cairn's checks of its sources, as the deep skill says: the refusal is what
      // the assistant reads (counted), then it stores again a little later.
      if (result.isError && text.includes('"sources_pending"') && attempt < 40) {
        this.#count(name, args, text);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        continue;
      }
      if (result.isError) throw new Error(`${name} failed: ${text.slice(0, 800)}`);
      this.#count(name, args, text);
      return result.structuredContent ?? JSON.parse(text);
    }
  }

  #count(name, args, text) {
    const entry = this.perTool.get(name) ?? { calls: 0, request: 0, response: 0 };
    const request = tokens(args);
    const response = tokens(text);
    entry.calls += 1;
    entry.request += request;
    entry.response += response;
    this.perTool.set(name, entry);
    this.calls.push({ name, args, text, request, response, phase: this.phase });
  }

  totals() {
    let request = 0;
    let response = 0;
    for (const entry of this.perTool.values()) {
      request += entry.request;
      response += entry.response;
    }
    return { request, response };
  }
}

/**
 * tools/list and the skills a run loads, counted as the model sees them, both ways a client gets them:
 * as prompts (`prompts/get`, the text with the topic filled in), and through the Skills extension
 * (`skills/list`: each skill's name and description in the host's registry; `resources/read` of each
 * SKILL.md the run loads). `texts` keeps each skill's prompt text: the instructions the run follows.
 */
export async function measureSurface(publicUrl, credential, path, promptNames, topic) {
  const { tools } = await mcpCall(publicUrl, credential, "tools/list", {}, path);
  const prompts = {};
  const texts = {};
  for (const name of promptNames) {
    const prompt = await mcpCall(publicUrl, credential, "prompts/get", { name, arguments: { topic } }, path);
    texts[name] = prompt.messages.map((m) => m.content.text).join("\n");
    prompts[name] = tokens(texts[name]);
  }
  const { skills } = await mcpCall(publicUrl, credential, "skills/list", {}, path);
  const skillIndex = tokens(skills.map(({ frontmatter }) => ({ name: frontmatter.name, description: frontmatter.description })));
  const skillFiles = {};
  for (const name of promptNames) {
    const { uri } = skills.find((skill) => skill.frontmatter.name === name);
    const { contents } = await mcpCall(publicUrl, credential, "resources/read", { uri }, path);
    skillFiles[name] = tokens(contents[0].text);
  }
  const sum = (record) => Object.values(record).reduce((a, b) => a + b, 0);
  return {
    toolsList: tokens(tools),
    toolCount: tools.length,
    toolNames: tools.map((tool) => tool.name),
    prompts,
    promptTotal: sum(prompts),
    texts,
    skillIndex,
    skillFiles,
    skillTotal: skillIndex + sum(skillFiles),
  };
}

/** Tool names a skill's text calls or quotes (`tool_name(` and `` `tool_name` ``), in the order it first names them. */
export function namedTools(text, toolNames) {
  const served = new Set(toolNames);
  const found = [];
  for (const match of text.matchAll(/`?\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\s*\(|`)/g)) {
    if (served.has(match[1]) && !found.includes(match[1])) found.push(match[1]);
  }
  return found;
}

/**
 * Where a run departs from the skills it loaded: per skill, the tools its text names that the run did
 * not call in that phase (the branches the run did not take: resume, errors, changes, approval), and
 * any call the phase's skill does not name at all (a departure to fix, in the bench or the skill).
 */
export function departures(meter, texts, toolNames) {
  return Object.entries(texts).map(([skill, text]) => {
    const named = namedTools(text, toolNames);
    const called = [...new Set(meter.calls.filter((call) => call.phase === skill).map((call) => call.name))];
    return { skill, named, notCalled: named.filter((name) => !called.includes(name)), unnamed: called.filter((name) => !named.includes(name)) };
  });
}

const SUBTOPICS = ["Lifetime cost", "Cold-climate performance", "Grid and tariff risk"];
const QUESTION = "Should a 40-home cooperative choose ground-source heat pumps over district heating?";

/** A step's result as a model writes it: ~150 words of findings with a few structured fields. */
const stepResult = (order, extra = {}) => ({ ...extra, summary: prose(110, order * 7), findings: [prose(20, order * 11), prose(20, order * 13)] });

const source = (i, subtopic) => ({
  url: `https://energy.example/report-${i}`,
  title: `Field study ${i}: ${subtopic.toLowerCase()} of ground-source systems`,
  facts: prose(45, 100 + i),
  quote: prose(28, 200 + i),
  fetchedAt: `2026-11-2${i % 5}T10:0${i}:00Z`,
  contentHash: `sha256:${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(16, "0").repeat(4).slice(0, 64)}`,
  subtopic,
  query: `${subtopic.toLowerCase()} ground source heat pump study`,
  evidenceRef: `web-${i}`,
});

/** The 800-word report: every paragraph cites a grounded source. */
function report(grounded) {
  const cite = (i) => `[${grounded[i % grounded.length]}]`;
  const sections = [`## Method\nRun: depth standard, 2 rounds, 3 researchers, 8 sources recorded.`, `## Answer\n${prose(60, 900)} ${cite(0)}`];
  let p = 0;
  for (const subtopic of SUBTOPICS) {
    sections.push(`## ${subtopic}\n${prose(75, 910 + p)} ${cite(p++)}\n\n${prose(75, 920 + p)} ${cite(p++)}\n\n- ${prose(30, 930 + p)} ${cite(p++)}`);
  }
  sections.push(`## Trade-offs\n${prose(80, 990)} ${cite(1)}`);
  sections.push(`## Confidence & limitations\n${prose(50, 995)}`);
  sections.push(`## Sources\n${grounded.map((ref, i) => `- [${ref}] Field study ${i + 1} — https://energy.example/report-${i}`).join("\n")}`);
  return sections.join("\n\n");
}

/**
 * The deep lifecycle (research → research-deep → research-output): tracking, the prior check,
 * the plan from the template, 13 steps with one checkpoint, 8 sources, 6 claims, 9 verdicts,
 * an 800-word report that passes strict, feedback and completion.
 */
/** Waits until no source of the plan's ledger is still being checked, through a meter that counts nothing. */
async function sourceChecksDone(meter, planId) {
  const quiet = new Meter(meter.publicUrl, meter.credential, meter.path);
  for (let attempt = 0; attempt < 80; attempt++) {
    await quiet.call("get_evidence_ledger", { planId, detail: "full" });
    if (!quiet.calls.at(-1)?.text.includes('"pending"')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the plan's sources were still being checked after 20 s");
}

export async function runDeep(meter, { createPlan }) {
  // The router checks earlier research first, then records the run once, the check's outcome included.
  await meter.call("search_sources", { query: "ground source heat pumps district heating", limit: 5 });
  const execution = await meter.call("log_skill_execution", {
    skillName: "research",
    sessionId: "bench-deep",
    metadata: {
      topic: QUESTION,
      researchType: "decision_support",
      decisionContext: "Board vote in March on the heating renewal",
      clarifyingQuestions: [{ question: "What budget range?", answer: "Up to 2 M EUR" }],
      routingRationale: "A costly decision with conflicting sources: deep research with verification",
      delegatedTo: "deep",
      originalQuery: QUESTION,
      priorResearchCheck: { decision: "none_found", artifactIds: [] },
    },
  });
  meter.phase = "research-deep";
  const plan = await createPlan(meter, { researchType: "decision_support", mode: "deep", topic: QUESTION, sessionId: "bench-deep" });
  const planId = plan.planId;
  const recorded = [];
  let cursor;
  let ledgerCursor;
  const claims = [];
  let round = 0;
  let synth = 0;
  const counts = { steps: 0, sources: 0, claims: 0, verdicts: 0, checkpoints: 0, reportWords: 0 };
  for (let guard = 0; guard < 40; guard++) {
    const next = await meter.call("get_next_step", { planId });
    if (next.status === "plan_complete") break;
    if (next.status !== "step") throw new Error(`deep: unexpected ${JSON.stringify(next).slice(0, 400)}`);
    const { step, claimId } = next;
    counts.steps += 1;
    if (step.stepOrder > 1) cursor = (await meter.call("get_step_context", { planId, stepId: step.stepId, ...(cursor ? { since: cursor } : {}) })).cursor;
    const submit = (result, confidence = 0.8) =>
      meter.call("submit_step_result", { planId, stepId: step.stepId, claimId, result, confidence, stepExecutionReport: REPORT(`Executed step ${step.stepOrder} (${step.stepType}).`) });
    const text = step.instructions;
    if (/^Decompose/.test(text)) {
      await meter.call("record_evidence", { planId, subtopics: SUBTOPICS });
      await submit(stepResult(step.stepOrder, { subtopics: SUBTOPICS.map((name) => ({ name, scope: prose(8, name.length) })), currentDate: "2026-11-25" }));
    } else if (/^Show the user/.test(text)) {
      await meter.call("request_user_review", { planId, stepId: step.stepId, claimId, presentation: `Subtopics: ${SUBTOPICS.join("; ")}. ${prose(40, 5)}`, questions: ["Are these the decision criteria?"] });
      await meter.call("submit_review", { planId, stepId: step.stepId, decision: "approve", feedback: "Yes, go ahead" });
      counts.checkpoints += 1;
    } else if (/^Retrieval round/.test(text)) {
      const batch = [0, 1, 2, 3].map((k) => source(round * 4 + k, SUBTOPICS[(round * 4 + k) % SUBTOPICS.length]));
      round += 1;
      const answer = await meter.call("record_evidence", { planId, evidence: batch });
      for (const [k, item] of answer.evidence.entries()) recorded.push({ ref: item.ref, subtopic: batch[k].subtopic });
      counts.sources += batch.length;
      await submit(stepResult(step.stepOrder, { round, queries: 4, sourcesRecorded: answer.evidence.map((e) => e.ref) }));
    } else if (/^Assess round/.test(text)) {
      // The template's second assess reads only what changed since the first.
      ledgerCursor = (await meter.call("get_evidence_ledger", { planId, ...(ledgerCursor ? { since: ledgerCursor } : {}) })).cursor;
      await submit(stepResult(step.stepOrder, { open: [], answered: SUBTOPICS }));
    } else if (/^Synthesis worker/.test(text)) {
      const subtopic = SUBTOPICS[synth++ % SUBTOPICS.length];
      await meter.call("get_evidence_ledger", { planId, subtopic });
      const refs = recorded.filter((r) => r.subtopic === subtopic).map((r) => r.ref);
      const answer = await meter.call("record_claims", {
        planId,
        claims: [0, 1].map((k) => ({ subtopic, text: prose(22, 300 + synth * 10 + k), evidenceRefs: [refs[k % refs.length]], workerId: "worker-1", confidence: 0.75, highStakes: k === 0 })),
      });
      claims.push(...answer.claims.map((c) => c.ref));
      counts.claims += 2;
      await submit(stepResult(step.stepOrder, { subtopic, claims: answer.claims.map((c) => c.ref), contradictions: [] }));
    } else if (/^Reviewer/.test(text)) {
      const shard = /^Reviewer 1/.test(text) ? 1 : 2;
      await meter.call("get_evidence_ledger", { planId, status: "PENDING_REVIEW", shard });
      const mine = claims.filter((_, i) => i % 2 === shard - 1);
      await meter.call("record_verdicts", {
        planId,
        verdicts: mine.map((claim) => ({ claim, kind: "reviewer", judge: `reviewer-${shard}`, shard, verdict: "SUPPORTED", reasoning: prose(18, 400 + shard), confidence: 0.8 })),
      });
      counts.verdicts += mine.length;
      await submit(stepResult(step.stepOrder, { reviewed: mine.length }));
    } else if (/^Critic/.test(text)) {
      await meter.call("get_evidence_ledger", { planId, status: "SUPPORTED", highStakes: true });
      const highStakes = claims.filter((_, i) => i % 2 === 0);
      await meter.call("record_verdicts", {
        planId,
        verdicts: highStakes.map((claim) => ({ claim, kind: "critic", judge: "critic", verdict: "SURVIVES", reasoning: prose(20, 500), confidence: 0.75 })),
      });
      counts.verdicts += highStakes.length;
      await submit(stepResult(step.stepOrder, { challenged: highStakes.length }), 0.8);
    } else if (/^Write the report/.test(text)) {
      // In a real run the report comes minutes after the sources were recorded, and Cairn's checks of them
      // (seconds each) are long done; here it comes milliseconds later. Wait for them, uncounted, as time would.
      await sourceChecksDone(meter, planId);
      const ledger = await meter.call("get_evidence_ledger", { planId, status: "GROUNDED" });
      const grounded = [...new Set((ledger.claims ?? []).flatMap((c) => c.evidenceRefs ?? []))];
      const content = report(grounded.length ? grounded : recorded.map((r) => r.ref));
      counts.reportWords = content.split(/\s+/).length;
      const stored = await meter.call("store_research_output", {
        planId,
        executionId: execution.executionId,
        title: "Heat pumps vs district heating for the cooperative",
        mediaType: "markdown",
        content,
        // Each citation gives its source's own URL (source n is E(n+1)): strict refuses a ref paired with another page.
        citations: grounded.map((ref, i) => ({ ref, title: `Field study ${i + 1}`, url: `https://energy.example/report-${Number(ref.slice(1)) - 1}` })),
      });
      if (stored.verification && stored.verification.passed !== true) throw new Error(`report did not pass strict: ${JSON.stringify(stored.verification)}`);
      counts.outputId = stored.outputId;
      await submit({ outputId: stored.outputId, verification: { passed: true } });
    } else {
      await submit(stepResult(step.stepOrder));
    }
  }
  // research-output after a deep run: the report is stored and in context; present it (no call), then feedback and completion.
  meter.phase = "research-output";
  await meter.call("submit_research_feedback", { phase: "initial", satisfaction: 4, summary: "Useful, cites well", planId, outputId: counts.outputId, executionId: execution.executionId });
  await meter.call("log_skill_execution", { executionId: execution.executionId, status: "completed", metadata: { stepsCompleted: counts.steps, artifactsStored: 0, checkpointFeedback: "Yes, go ahead" } });
  return counts;
}

/** The scan lifecycle (research → research-scan → research-output): every step stores an artifact. */
export async function runScan(meter, { createPlan }) {
  const topic = "geothermal heat pumps for Nordic homes";
  await meter.call("search_sources", { query: "geothermal heat pumps Nordic", limit: 5 });
  const execution = await meter.call("log_skill_execution", {
    skillName: "research",
    sessionId: "bench-scan",
    metadata: {
      topic,
      researchType: "general_topic",
      scope: "Residential use in Nordic climates",
      routingRationale: "Broad overview: a scan suffices",
      delegatedTo: "scan",
      originalQuery: `Give me an overview of ${topic}`,
      priorResearchCheck: { decision: "none_found", artifactIds: [] },
    },
  });
  meter.phase = "research-scan";
  const plan = await createPlan(meter, { researchType: "general_topic", mode: "scan", topic, sessionId: "bench-scan" });
  const planId = plan.planId;
  let steps = 0;
  let cursor;
  for (let guard = 0; guard < 40; guard++) {
    const next = await meter.call("get_next_step", { planId });
    if (next.status === "plan_complete") break;
    if (next.status !== "step") throw new Error(`scan: unexpected ${JSON.stringify(next).slice(0, 400)}`);
    const { step, claimId } = next;
    steps += 1;
    if (step.stepOrder > 1) cursor = (await meter.call("get_step_context", { planId, stepId: step.stepId, ...(cursor ? { since: cursor } : {}) })).cursor;
    const artifact = await meter.call("store_research", {
      artifactType: step.stepType === "search" ? "source" : "analysis",
      title: `${topic}: step ${step.stepOrder} ${step.stepType}`,
      content: { points: [prose(30, step.stepOrder), prose(30, step.stepOrder + 50)] },
      contentText: prose(120, step.stepOrder + 70),
      confidence: 0.8,
      planId,
      stepId: step.stepId,
      tags: ["nordic"],
      ...(step.stepType === "search" ? { sourceUrl: `https://example.org/${step.stepOrder}` } : {}),
    });
    await meter.call("submit_step_result", {
      planId,
      stepId: step.stepId,
      claimId,
      result: stepResult(step.stepOrder, { artifactIds: [artifact.artifactId] }),
      confidence: 0.8,
      stepExecutionReport: REPORT(`Executed step ${step.stepOrder}.`),
    });
  }
  // research-output after a scan: load the plan's findings, then write, store, feedback, completion.
  meter.phase = "research-output";
  await meter.call("get_research_context", { planId, detail: "full" });
  const output = await meter.call("store_research_output", {
    planId,
    executionId: execution.executionId,
    title: `${topic}: overview`,
    mediaType: "markdown",
    content: `# ${topic}\n\n${prose(400, 77)}`,
    citations: [{ title: "Source 1", url: "https://example.org/1" }],
  });
  await meter.call("submit_research_feedback", { phase: "initial", satisfaction: 5, summary: "Clear overview", planId, outputId: output.outputId, executionId: execution.executionId });
  await meter.call("log_skill_execution", { executionId: execution.executionId, status: "completed", metadata: { stepsCompleted: steps, artifactsStored: steps } });
  return { steps };
}

/** How the skills build a plan from the template: Cairn builds it server-side from the template and the topic. */
export async function planFromTemplate(meter, { researchType, mode, topic, sessionId }) {
  return meter.call("create_research_plan", { template: { researchType, mode }, topic, sessionId });
}

/** The round trip the skills made before create_research_plan took a template: read it, send it back as the plan. */
export async function planFromTemplateRoundTrip(meter, { researchType, mode, topic, sessionId }) {
  const { templates } = await meter.call("get_plan_templates", { researchType, mode, topic });
  return meter.call("create_research_plan", { ...templates[0].createPlanArguments, sessionId });
}

/**
 * The core profile (/mcp/core) has no template, ledger or context tools: the model writes the
 * plan's 13 steps itself and keeps its findings in step results.
 */
export async function planWritten(meter, { topic }) {
  const kinds = ["analyze", "checkpoint", "search", "analyze", "search", "analyze", "synthesize", "synthesize", "synthesize", "critique", "critique", "critique", "synthesize"];
  return meter.call("create_research_plan", {
    name: `[Deep] ${topic}`.slice(0, 200),
    researchQuestion: topic,
    steps: kinds.map((stepType, i) => ({ stepType, instructions: `${stepType === "checkpoint" ? "Show the user" : "Step"} ${i + 1}: ${prose(25, i)}` })),
    planDesignRationale: prose(30, 3),
  });
}

/** The deep run through /mcp/core: the same 13 steps and sizes, findings in the results, the report with citations. */
export async function runCoreDeep(meter, reviewer) {
  await meter.call("search_sources", { query: "ground source heat pumps district heating", limit: 5 });
  meter.phase = "research-deep";
  const plan = await planWritten(meter, { topic: QUESTION });
  const planId = plan.planId;
  let steps = 0;
  for (let guard = 0; guard < 40; guard++) {
    const next = await meter.call("get_next_step", { planId });
    if (next.status === "plan_complete") break;
    if (next.status !== "step") throw new Error(`core: unexpected ${JSON.stringify(next).slice(0, 400)}`);
    const { step, claimId } = next;
    steps += 1;
    if (step.stepType === "checkpoint") {
      await meter.call("request_user_review", { planId, stepId: step.stepId, claimId, presentation: `Subtopics: ${SUBTOPICS.join("; ")}. ${prose(40, 5)}`, questions: ["Are these the decision criteria?"] });
      // The person answers in the dashboard (not the model's context).
      await reviewer.call("submit_review", { planId, stepId: step.stepId, decision: "approve", feedback: "Yes, go ahead" });
      continue;
    }
    let result = stepResult(step.stepOrder);
    if (step.stepOrder === plan.totalSteps) {
      // The core deep skill's report step stores the report and submits its outputId.
      const stored = await meter.call("store_research_output", {
        planId,
        title: "Heat pumps vs district heating for the cooperative",
        mediaType: "markdown",
        content: report(["E1", "E2", "E3"]).replace(/\[E\d\]/g, "[S1]"),
        citations: [{ ref: "S1", title: "Field study 1", url: "https://energy.example/report-0" }],
      });
      result = { outputId: stored.outputId };
    }
    await meter.call("submit_step_result", { planId, stepId: step.stepId, claimId, result, confidence: 0.8, stepExecutionReport: REPORT(`Executed step ${step.stepOrder}.`) });
  }
  // research-output after a deep run: the report is stored and in context; it is presented, nothing loaded.
  meter.phase = "research-output";
  return { steps };
}

/**
 * Acknowledgements (the answers of tools that write) must not hand the caller's words back: any
 * string of the request (a value of 12+ characters or with a space, or a key of a free-form object
 * such as `metadata`) found among the answer's strings is an echo, except the ids it acts on.
 */
export const ACKNOWLEDGING_TOOLS = new Set([
  "log_skill_execution",
  "create_research_plan",
  "record_evidence",
  "record_claims",
  "record_verdicts",
  "submit_step_result",
  "request_user_review",
  "submit_review",
  "store_research",
  "store_research_output",
  "submit_research_feedback",
]);
const FREE_FORM = new Set(["metadata", "result", "content"]);

export function echoesOf({ name, args, text }) {
  const ids = new Set();
  const said = new Set();
  const walk = (value, key, freeForm) => {
    if (typeof value === "string") {
      if (/(Id|Ids|^claim|^ref)$/.test(key ?? "")) ids.add(value);
      else if (value.length >= 12 || /\s/.test(value)) said.add(value);
    } else if (Array.isArray(value)) for (const item of value) walk(item, key, freeForm);
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (freeForm && k.length >= 5) said.add(k);
        walk(v, k, freeForm || FREE_FORM.has(k));
      }
    }
  };
  walk(args, undefined, false);
  const answered = [];
  const collect = (value) => {
    if (typeof value === "string") answered.push(value);
    else if (Array.isArray(value)) for (const item of value) collect(item);
    else if (value && typeof value === "object") for (const item of Object.values(value)) collect(item);
  };
  collect(JSON.parse(text));
  return [...said].filter((s) => !ids.has(s) && answered.some((a) => a === s || (s.length >= 20 && a.includes(s)))).map((s) => `${name}: ${s.slice(0, 60)}`);
}
