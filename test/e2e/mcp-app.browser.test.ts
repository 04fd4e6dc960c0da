import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey, projectRoot } from "../../scripts/lib/local.mjs";
import { findBrowser } from "../support/browser";
import { startSourcePages } from "../support/source-pages.global";

/**
 * The plan view (an MCP App) in Chromium, hosted the way Claude and ChatGPT host
 * it: ext-apps' own host-side bridge, the app in a sandboxed iframe, a real tool
 * result from the running Cairn, and the app's tools/call forwarded to Cairn
 * under the user's own key.
 */
const server = inject("server");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1100, height: 900 };

let userDataDir = "";
let context: BrowserContext;
let hostScript = "";
const pageErrors: string[] = [];

/** What test/support/mcp-app-host.ts puts on the page's window. */
interface HostWindow {
  cairnHost: {
    start(options: Record<string, unknown>): Promise<void>;
    reload(): Promise<void>;
    setTheme(theme: "light" | "dark"): void;
    calls: { name: string; arguments?: Record<string, unknown> }[];
    modelContexts: { content?: { type: string; text: string }[] }[];
    displayModeRequests: string[];
    openedLinks: string[];
  };
}

/** What the test host saw the app do. */
const hostRecord = (page: Page) => page.evaluate(() => {
  const { calls, modelContexts, displayModeRequests } = (globalThis as unknown as HostWindow).cairnHost;
  return { calls, modelContexts, displayModeRequests };
});

/** What the app reads beside the plan after each read of it: the plan's sources and its deliverables. */
const BESIDE_THE_PLAN = new Set(["get_evidence_ledger", "list_research_outputs", "get_research_output"]);
/** The app's calls about the plan itself. */
const planCalls = (calls: { name: string; arguments?: Record<string, unknown> }[]) => calls.filter((call) => !BESIDE_THE_PLAN.has(call.name));

/**
 * A cited page on loopback, which the development server's source checks may fetch: its text holds markup as words
 * (`<img …>`), which the view must show as text.
 */
const ARTICLE = `<!doctype html><html><head><title>Solid-state cells reach 500 Wh/kg</title></head><body>
<p>In March, the team reported that solid-state cells reached 500 Wh/kg in the lab &lt;img src=x onerror=alert(1)&gt; a record for the chemistry.</p>
<p>Costs remain higher than lithium-ion cells.</p></body></html>`;
let pages: Server | undefined;
let pagesOrigin = "";
/** The cited-page fixtures, with pages a test rewrites (`/changing/NAME`). */
let sourcePages: Awaited<ReturnType<typeof startSourcePages>> | undefined;

interface RpcResult {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The full catalog, or the core profile (the lifecycle tools only: no ledger, no deliverables to read). */
type Endpoint = "/mcp" | "/mcp/core";

async function mcp(method: string, params: Record<string, unknown>, endpoint: Endpoint = "/mcp", key = server.apiKey): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${endpoint}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const message = (await response.json()) as RpcResult;
  if (message.error) throw new Error(`${method}: ${message.error.message}`);
  return message.result ?? {};
}
const callTool = (name: string, args: Record<string, unknown>, endpoint?: Endpoint, key?: string) => mcp("tools/call", { name, arguments: args }, endpoint, key);
const structured = async (name: string, args: Record<string, unknown>) => (await callTool(name, args)).structuredContent as Record<string, unknown>;

/** A plan whose first step (a checkpoint) waits for a person's review. */
async function planAwaitingReview(name: string) {
  const created = await structured("create_research_plan", {
    name,
    researchQuestion: "Which embedded vector database should the app use?",
    steps: [
      { stepType: "checkpoint", instructions: "Confirm the shortlist with the user" },
      { stepType: "search", instructions: "Benchmark the shortlist" },
    ],
    planDesignRationale: "Confirm, then benchmark",
  });
  const planId = String(created.planId);
  const next = (await structured("get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
  await structured("request_user_review", {
    planId,
    stepId: next.step.stepId,
    claimId: next.claimId,
    presentation: "## Shortlist\n\n- **sqlite-vec**\n- LanceDB, Chroma\n\n<b>raw markup stays text</b>",
    questions: ["Must it run fully offline?"],
  });
  return { planId, stepId: next.step.stepId };
}

interface HostOptions {
  toolName: string;
  toolArguments: Record<string, unknown>;
  serverTools: boolean;
  theme?: "light" | "dark";
  size?: typeof DESKTOP;
  displayModes?: string[];
  modelContext?: boolean;
  endpoint?: Endpoint;
  partialArguments?: Record<string, unknown>[];
  cancelledWith?: string;
  /** The credential the host forwards the view's calls with (the person's own; by default the assistant's key). */
  key?: string;
}

/** The app's tools/call as the server answered them, in the order the answers came. */
interface Answered {
  name: string;
  refused?: string;
}

async function hostApp(options: HostOptions) {
  const page: Page = await context.newPage();
  await page.setViewportSize(options.size ?? DESKTOP);
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  const answered: Answered[] = [];
  await page.exposeFunction("forwardToolCall", async (call: { name: string; arguments?: Record<string, unknown> }) => {
    try {
      const result = await callTool(call.name, call.arguments ?? {}, options.endpoint, options.key);
      answered.push({ name: call.name });
      return result;
    } catch (error) {
      answered.push({ name: call.name, refused: String(error) });
      throw error;
    }
  });
  await page.setContent("<!doctype html><html><body style='margin:0'></body></html>");
  await page.addScriptTag({ content: hostScript });
  const html = ((await mcp("resources/read", { uri: "ui://cairn/plan-view.html" }, options.endpoint)).contents as { text: string }[])[0]?.text ?? "";
  const toolResult = await callTool(options.toolName, options.toolArguments, options.endpoint);
  await page.evaluate((start) => (globalThis as unknown as HostWindow).cairnHost.start(start), {
    html,
    toolName: options.toolName,
    toolArguments: options.toolArguments,
    toolResult,
    serverTools: options.serverTools,
    theme: options.theme ?? "light",
    displayModes: options.displayModes,
    modelContext: options.modelContext,
    partialArguments: options.partialArguments,
    cancelledWith: options.cancelledWith,
  });
  const frame = await waitForFrame(page);
  // With tool access the view also reads the plan as it is now (the result it was given may be old): wait for that read.
  if (options.serverTools) await expect.poll(async () => (await hostRecord(page)).calls.length).toBeGreaterThan(0);
  return { page, frame, answered };
}

async function waitForFrame(page: Page): Promise<Frame> {
  await page.waitForSelector("iframe#app");
  for (let i = 0; i < 100; i++) {
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame() && !candidate.isDetached());
    if (frame && (await frame.locator("h1").count().catch(() => 0)) > 0) return frame;
    await page.waitForTimeout(50);
  }
  throw new Error("the app never rendered a plan");
}

describe("the plan view as an MCP App in Chromium", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(projectRoot, "test/support/mcp-app-host.ts")],
      bundle: true,
      format: "iife",
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    hostScript = bundle.outputFiles[0]?.text ?? "";
    sourcePages = await startSourcePages();
    pages = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE));
    await new Promise<void>((resolve) => pages?.listen(0, "127.0.0.1", resolve));
    const address = pages.address();
    pagesOrigin = typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : "";
    const browser = await findBrowser();
    userDataDir = mkdtempSync(join(tmpdir(), "cairn-chromium-app-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: browser.executablePath,
      ...(browser.env ? { env: { ...process.env, ...browser.env } } : {}),
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  }, 120_000);

  afterAll(async () => {
    await sourcePages?.close();
    await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it("shows progress, steps and the pending review from a real get_plan_status result; Approve sends exactly submit_review and tells the model", async () => {
    const { planId, stepId } = await planAwaitingReview("[Scan] App-hosted plan");
    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, modelContext: true });
    expect(await frame.textContent("h1")).toBe("[Scan] App-hosted plan");
    expect(await frame.getAttribute("[role=progressbar]", "aria-valuenow")).toBe("0");
    expect(await frame.locator("li.step").count()).toBe(2);
    expect(await frame.textContent(`section.review[data-step="${stepId}"]`)).toContain("Must it run fully offline?");
    // The presentation's Markdown as elements built from text (a heading, a list, bold); its raw HTML as text.
    const presentation = frame.locator(`section.review[data-step="${stepId}"] > .md`);
    expect(await presentation.locator("h4").textContent()).toBe("Shortlist");
    expect(await presentation.locator("ul > li").allTextContents()).toEqual(["sqlite-vec", "LanceDB, Chroma"]);
    expect(await presentation.locator("li > strong").textContent()).toBe("sqlite-vec");
    expect(await presentation.locator("b").count()).toBe(0);
    expect(await presentation.textContent()).toContain("<b>raw markup stays text</b>");
    // Nothing said to the model before the person acts: it has the tool result already.
    expect((await hostRecord(page)).modelContexts).toEqual([]);
    await frame.click("button:text-is('Approve')");
    await frame.waitForSelector("text=Review sent: approve.");
    const { calls } = await hostRecord(page);
    // On load the view read the plan as it is now; then exactly the answer, then a refresh, all through the host.
    expect(calls).toContainEqual({ name: "get_evidence_ledger", arguments: { planId, detail: "full", limit: 100 } });
    expect(planCalls(calls)).toEqual([
      { name: "get_plan_status", arguments: { planId } },
      { name: "submit_review", arguments: { planId, stepId, decision: "approve" } },
      { name: "get_plan_status", arguments: { planId } },
    ]);
    // The model learns the review is answered (ui/update-model-context; the host keeps the last, so it says the whole state).
    await expect.poll(async () => (await hostRecord(page)).modelContexts.length).toBe(1);
    const told = (await hostRecord(page)).modelContexts[0]?.content?.[0]?.text ?? "";
    expect(told).toContain("The person answered the review of step 1 in the plan view: approve.");
    expect(told).toContain(`Plan "[Scan] App-hosted plan" (${planId}) is now active, 50% of 2 steps done; no review waiting for the person.`);
    expect(await frame.locator("section.review").count()).toBe(0);
    expect(await frame.getAttribute("[role=progressbar]", "aria-valuenow")).toBe("50");
    const onServer = await structured("get_plan_status", { planId });
    expect(onServer.pendingReviews).toEqual([]);
    await page.close();
  });

  it("needs a note to revise, sends it, and follows the host's theme", async () => {
    const { planId, stepId } = await planAwaitingReview("[Scan] Revised in the app");
    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, theme: "dark" });
    expect(await frame.evaluate("document.documentElement.dataset.theme")).toBe("dark");
    const darkBackground = await frame.evaluate("getComputedStyle(document.body).backgroundColor");
    await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.setTheme("light"));
    await expect.poll(() => frame.evaluate("document.documentElement.dataset.theme")).toBe("light");
    expect(await frame.evaluate("getComputedStyle(document.body).backgroundColor")).not.toBe(darkBackground);

    await frame.click("button:text-is('Revise')");
    await frame.waitForSelector("text=Write a note to revise.");
    expect(planCalls((await hostRecord(page)).calls).map((call) => call.name)).toEqual(["get_plan_status"]);
    await frame.fill("textarea", "Add DuckDB to the shortlist");
    await frame.click("button:text-is('Revise')");
    await frame.waitForSelector("text=Review sent: revise.");
    const { calls, modelContexts } = await hostRecord(page);
    expect(planCalls(calls)[1]).toEqual({
      name: "submit_review",
      arguments: { planId, stepId, decision: "revise", feedback: "Add DuckDB to the shortlist" },
    });
    // This host does not take model context updates: the view sends none.
    expect(modelContexts).toEqual([]);
    await page.close();
  });

  it("offers full screen where the host has it, shows step results as text, and rebuilds from the server after a reload", async () => {
    const created = await structured("create_research_plan", {
      name: "[Scan] Full screen plan",
      researchQuestion: "Which embedded vector database should the app use?",
      steps: [
        { stepType: "search", instructions: "Find candidates" },
        { stepType: "checkpoint", instructions: "Confirm the shortlist" },
      ],
      planDesignRationale: "Search, then confirm",
    });
    const planId = String(created.planId);
    const first = (await structured("get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
    const notes = "Runs in-process with no server; ".repeat(12);
    await structured("submit_step_result", {
      planId,
      stepId: first.step.stepId,
      claimId: first.claimId,
      result: { winner: "sqlite-vec", candidates: ["sqlite-vec", "LanceDB"], scores: { recall: 0.93 }, notes },
      confidence: 0.8,
      stepExecutionReport: { thinking: "Compared", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] },
    });
    const second = (await structured("get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
    await structured("request_user_review", { planId, stepId: second.step.stepId, claimId: second.claimId, presentation: "Take sqlite-vec?", questions: [] });

    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, displayModes: ["inline", "fullscreen"] });
    // The step result as labelled lines, a list of words on one line, the cut marked, no JSON.
    const result = frame.locator('li.step[data-status="completed"] .result');
    const text = (await result.textContent()) ?? "";
    for (const line of ["Winner: sqlite-vec", "Candidates: sqlite-vec, LanceDB", "Scores: Recall: 0.93", "Notes: Runs in-process", "… (the whole result is in the chat)"]) expect(text).toContain(line);
    expect(text).not.toMatch(/[{}"[\]]/);

    // Inline first; the view asks for full screen (ui/request-display-mode) and follows the mode the host answers with.
    expect(await frame.evaluate("document.documentElement.dataset.mode")).toBe("inline");
    await frame.click("button:text-is('Full screen')");
    await frame.waitForSelector("button:text-is('Exit full screen')");
    expect(await frame.evaluate("document.documentElement.dataset.mode")).toBe("fullscreen");
    await frame.click("button:text-is('Exit full screen')");
    await frame.waitForSelector("button:text-is('Full screen')");
    expect((await hostRecord(page)).displayModeRequests).toEqual(["fullscreen", "inline"]);

    // Answered here, then the host reloads the view with the same (now old) result: it shows the plan as it is now.
    await frame.click("button:text-is('Approve')");
    await frame.waitForSelector("text=Review sent: approve.");
    await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.reload());
    const reloaded = await waitForFrame(page);
    await expect.poll(() => reloaded.getAttribute("[role=progressbar]", "aria-valuenow")).toBe("100");
    expect(await reloaded.locator("section.review").count()).toBe(0);
    expect(await reloaded.locator("li.step .result").first().textContent()).toContain("Winner: sqlite-vec");
    await page.close();
  });

  it("shows a plan waiting for approval, with its steps and rationale, and approving it starts the plan", async () => {
    const created = await structured("create_research_plan", {
      name: "[Scan] Approved in the app",
      researchQuestion: "Which embedded vector database should the app use?",
      steps: [
        { stepType: "search", instructions: "Shortlist embedded vector databases" },
        { stepType: "synthesize", instructions: "Recommend one" },
      ],
      planDesignRationale: "Shortlist, then recommend",
      approval: "required",
    });
    const planId = String(created.planId);
    const reviewId = String(((await structured("get_plan_status", { planId })).pendingReviews as { reviewId: string }[])[0]?.reviewId);
    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true });
    const card = await frame.textContent(`section.review[data-kind="approval"]`);
    expect(card).toContain("Approve this plan before it starts");
    // Its steps a numbered list (the presentation is Markdown).
    expect(await frame.locator(`section.review[data-kind="approval"] .md ol > li`).allTextContents()).toEqual(["[search] Shortlist embedded vector databases", "[synthesize] Recommend one"]);
    expect(card).toContain("Design rationale: Shortlist, then recommend");
    // The README's picture of the view: a plan waiting for its approval, refreshed deliberately (UPDATE_DOCS_SCREENSHOTS=1).
    if (process.env.UPDATE_DOCS_SCREENSHOTS === "1") {
      await page.setViewportSize({ width: 720, height: 720 });
      await page.locator("iframe#app").screenshot({ path: join(projectRoot, "docs", "images", "mcp-app-plan.png") });
    }
    // The assistant's credential cannot approve: the view opens Cairn's approval page for the person instead.
    await frame.click("button:text-is('Approve')");
    await frame.waitForSelector("text=Approve it on Cairn's page that just opened");
    expect(await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.openedLinks)).toEqual([`${server.url}/dashboard/plans/${planId}`]);
    expect((await structured("get_plan_status", { planId })).pendingReviews).toHaveLength(1);
    await page.close();

    // Where the host calls with a credential acting for the person (plans:approve), the approval goes through in place.
    const approver = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, key: server.approverKey });
    await approver.frame.click("button:text-is('Approve')");
    await approver.frame.waitForSelector("text=Review sent: approve.");
    const calls = await approver.page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls);
    // On load the view read the plan as it is now; then exactly the answer (naming the version it showed), then a refresh.
    expect(planCalls(calls)).toEqual([
      { name: "get_plan_status", arguments: { planId } },
      { name: "submit_review", arguments: { planId, stepId: reviewId, decision: "approve", planVersion: expect.any(Number) } },
      { name: "get_plan_status", arguments: { planId } },
    ]);
    expect(await approver.frame.locator("section.review").count()).toBe(0);
    expect((await structured("get_next_step", { planId })).status).toBe("step");
    await approver.page.close();
  });

  it("revises an approval with a step edited, one removed and the budget set, and tells the model what changed", async () => {
    const created = await structured("create_research_plan", {
      name: "[Scan] Edited in the app",
      researchQuestion: "Which embedded vector database should the app use?",
      steps: [
        { stepType: "search", instructions: "Shortlist embedded vector databases" },
        { stepType: "analyze", instructions: "Benchmark every candidate" },
        { stepType: "synthesize", instructions: "Recommend one" },
      ],
      planDesignRationale: "Shortlist, benchmark, recommend",
      approval: "required",
      budget: { maxSteps: 6 },
    });
    const planId = String(created.planId);
    const [first, second] = created.steps as { stepId: string }[];
    const reviewId = String(((await structured("get_plan_status", { planId })).pendingReviews as { reviewId: string }[])[0]?.reviewId);
    // Revising changes what the person approves: it takes a credential acting for them (plans:approve).
    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, modelContext: true, key: server.approverKey });

    // The editor reads the steps whole when opened (the presentation clips long instructions).
    await frame.click("details.edit > summary");
    await frame.waitForSelector(`[data-edit="${first?.stepId}"] textarea`);
    expect(await frame.locator("[data-edit] textarea").count()).toBe(3);
    expect(await frame.inputValue(`[data-edit="${first?.stepId}"] textarea`)).toBe("Shortlist embedded vector databases");
    await frame.fill(`[data-edit="${first?.stepId}"] textarea`, "Shortlist open-source embedded vector databases");
    await frame.check(`[data-edit="${second?.stepId}"] input[type=checkbox]`);
    await frame.fill("[data-budget-field=maxSteps]", "4");
    // Edits go with Revise, and Revise needs a note for the assistant.
    await frame.click("button:text-is('Approve')");
    await frame.waitForSelector("text=Your edits go with Revise.");
    await frame.fill("textarea[aria-label='Note for the assistant']", "Open source only; skip the benchmark.");
    await frame.click("button:text-is('Revise')");
    await frame.waitForSelector("text=Review sent: revise.");

    const { calls } = await hostRecord(page);
    expect(calls.find((call) => call.name === "get_research_context")).toEqual({ name: "get_research_context", arguments: { planId, detail: "full" } });
    expect(calls.find((call) => call.name === "submit_review")).toEqual({
      name: "submit_review",
      arguments: {
        planId,
        stepId: reviewId,
        decision: "revise",
        feedback: "Open source only; skip the benchmark.",
        edits: [
          { stepId: first?.stepId, instructions: "Shortlist open-source embedded vector databases" },
          { stepId: second?.stepId, remove: true },
        ],
        budget: { maxSteps: 4 },
        planVersion: expect.any(Number),
      },
    });
    // The view shows the plan as revised, and the model hears what the person changed and where the plan now stands.
    expect(await frame.locator("li.step").count()).toBe(2);
    await expect.poll(async () => (await hostRecord(page)).modelContexts.length).toBe(1);
    const told = (await hostRecord(page)).modelContexts[0]?.content?.[0]?.text ?? "";
    expect(told).toContain(`The person answered the plan's approval in the plan view: revise ("Open source only; skip the benchmark."); edited step 1, removed step 2, set the budget (maxSteps 4).`);
    expect(told).toContain(`(${planId}) is now active, 0% of 2 steps done; no review waiting for the person.`);
    const status = await structured("get_plan_status", { planId });
    expect((status.pendingSteps as { stepId: string }[]).map((step) => step.stepId)).toEqual([first?.stepId, (created.steps as { stepId: string }[])[2]?.stepId]);
    expect((status.budget as { limits: unknown }).limits).toEqual({ maxSteps: 4 });
    const next = await structured("get_next_step", { planId });
    expect(next).toMatchObject({ step: { instructions: "Shortlist open-source embedded vector databases" }, reviewNotes: ["approval review (revise): Open source only; skip the benchmark."] });
    await page.close();
  });

  it("shows the plan's sources as Cairn checked them: counts by status, the ones not verified with their closest passage, as text", async () => {
    const created = await structured("create_research_plan", {
      name: "[Deep] Sources in the app",
      researchQuestion: "How dense are solid-state cells?",
      steps: [{ stepType: "search", instructions: "Find sources" }],
      planDesignRationale: "One search",
      citationPolicy: "report",
    });
    const planId = String(created.planId);
    const url = `${pagesOrigin}/article.html`;
    const source = (quote: string) => ({ url, title: "Solid-state cells reach 500 Wh/kg", facts: "Energy density in the lab", subtopic: "Density", quote });
    await structured("record_evidence", {
      planId,
      evidence: [
        source("the team reported that solid-state cells reached 500 Wh/kg in the lab"),
        source("Sodium-ion packs now power most city buses in Europe"),
        source("In March the team said solid-state cells reached 500 Wh/kg in tests <img src=x onerror=alert(1)> a record for this chemistry"),
      ],
    });
    // The checks run off the call path, through the queue: the view opens at once, shows what is still pending and
    // reads the ledger again until the verdicts are in.
    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true });
    await frame.waitForSelector("details.sources:not([hidden]) > summary");
    await expect.poll(() => frame.textContent("details.sources > summary"), { timeout: 60_000, interval: 500 }).toBe("Sources: 1 verified, 1 not found, 1 partial");
    const statuses = ((await structured("get_evidence_ledger", { planId })).evidence as { verification: string }[]).map((e) => e.verification);
    expect(statuses).toEqual(["verified", "not_found", "partial"]);
    await frame.click("details.sources > summary");
    // The verified source is counted; the others are listed with their status and score.
    expect(await frame.locator("ul.src li").evaluateAll((items) => items.map((item) => item.getAttribute("data-ref")))).toEqual(["E2", "E3"]);
    expect(await frame.textContent('ul.src li[data-ref="E2"]')).toMatch(/not found\s*score 0\.\d\d/);
    const partial = frame.locator('ul.src li[data-ref="E3"] blockquote');
    expect(await partial.textContent()).toBe("Closest passage: In March, the team reported that solid-state cells reached 500 Wh/kg in the lab <img src=x onerror=alert(1)> a record for the chemistry");
    // The page's words stay words: no element was made from them.
    expect(await frame.locator("ul.src img").count()).toBe(0);
    await page.close();
  });

  it("shows the plan's deliverables with their sources since delivery: verified, then changed and gone after a re-check; hidden on the core profile", async () => {
    const created = await structured("create_research_plan", {
      name: "[Deep] Deliverables in the app",
      researchQuestion: "How dense are solid-state cells?",
      steps: [{ stepType: "search", instructions: "Find sources" }],
      planDesignRationale: "One search",
      citationPolicy: "report",
    });
    const planId = String(created.planId);
    // Two cited pages this test rewrites: one will change its words, the other will be taken down.
    const name = `app-${crypto.randomUUID().slice(0, 8)}`;
    const [rewritten, removed] = [`${name}-a`, `${name}-b`];
    const source = (page: string, quote: string) => ({ url: `${sourcePages?.origin}/changing/${page}`, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg in the lab", subtopic: "Density", quote });
    await structured("record_evidence", {
      planId,
      evidence: [source(rewritten, "solid-state cells reached 500 Wh/kg in the lab"), source(removed, "Costs remain higher than lithium-ion cells")],
    });
    await expect
      .poll(async () => ((await structured("get_evidence_ledger", { planId })).evidence as { verification: string }[]).map((e) => e.verification), { timeout: 60_000, interval: 500 })
      .toEqual(["verified", "verified"]);
    const { outputId } = (await structured("store_research_output", {
      planId,
      title: "Density of solid-state cells",
      mediaType: "markdown",
      content: "Solid-state cells reached 500 Wh/kg [E1], though they still cost more [E2].",
    })) as { outputId: string };

    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, modelContext: true });
    const delivered = frame.locator(`section.outputs:not([hidden]) li[data-output="${outputId}"]`);
    await delivered.waitFor();
    expect(await delivered.locator("strong").textContent()).toBe("Density of solid-state cells");
    expect(await delivered.textContent()).toContain("version 1");
    expect(await delivered.locator(".badge").allTextContents()).toEqual(["2 verified"]);
    expect(await delivered.textContent()).toContain("2 sources cited:");
    expect(await delivered.textContent()).not.toContain("changed");
    const { calls } = await hostRecord(page);
    expect(calls).toContainEqual({ name: "list_research_outputs", arguments: { planId, limit: 5 } });
    expect(calls).toContainEqual({ name: "get_research_output", arguments: { outputId, part: "citations" } });

    // One cited page is rewritten, the other answers 404; an admin asks for a re-check (the REST route); Cairn reads them again.
    const setPage = (page: string, answer: Record<string, unknown>) => fetch(`${sourcePages?.origin}/control/changing/${page}`, { method: "PUT", body: JSON.stringify(answer) });
    expect((await setPage(rewritten, { type: "text/html", body: "<title>Solid-state batteries reach 500 Wh/kg</title><p>This article was rewritten.</p>" })).status).toBe(204);
    expect((await setPage(removed, { status: 404, type: "text/plain", body: "Not here" })).status).toBe(204);
    const { key: adminKey } = await createApiKey({ org: server.orgSlug, userEmail: server.email, name: `app-recheck-${name}`, scopes: ["research:read", "org:admin"] }, { persistTo: server.persistTo });
    const recheck = await fetch(`${server.url}/api/v1/sources/recheck`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } });
    expect(recheck.status, await recheck.clone().text()).toBe(202);
    await expect
      .poll(async () => (await structured("get_research_output", { outputId })).sources, { timeout: 90_000, interval: 500 })
      .toEqual({ total: 2, verified: 0, changed: 1, gone: 1, unverified: 0 });

    // Opened again (the same old tool result), the view reads the deliverable as it stands now.
    await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.reload());
    const reloaded = await waitForFrame(page);
    const changed = reloaded.locator(`section.outputs:not([hidden]) li[data-output="${outputId}"]`);
    await expect.poll(() => changed.locator(".badge").allTextContents(), { timeout: 10_000 }).toEqual(["1 changed", "1 gone"]);
    expect(await changed.locator(".error").allTextContents()).toEqual([
      "1 source changed since delivery — the quote is no longer on its page",
      "1 source gone since delivery — the page cannot be reached",
    ]);
    // The view's reads are its own: nothing was said to the model.
    expect((await hostRecord(page)).modelContexts).toEqual([]);
    await page.close();

    // The core profile has no deliverable tools: the view's reads are refused and the section stays hidden.
    const core = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true, endpoint: "/mcp/core" });
    await expect.poll(() => core.answered.filter((a) => a.name === "list_research_outputs" && a.refused).length).toBe(1);
    await core.page.waitForTimeout(300);
    expect(await core.frame.locator("section.outputs").isHidden()).toBe(true);
    expect(await core.frame.textContent("h1")).toBe("[Deep] Deliverables in the app");
    expect(core.answered.map((a) => a.name)).not.toContain("get_research_output");
    await core.page.close();
  });

  it("stops waiting when the host cancels the call, showing the plan as it stands, after streamed arguments", async () => {
    const { planId } = await planAwaitingReview("[Scan] Cancelled call");
    const cancelled = await hostApp({
      toolName: "get_plan_status",
      toolArguments: { planId },
      serverTools: true,
      partialArguments: [{ plan: "pl" }, { planId: planId.slice(0, 6) }],
      cancelledWith: "user action",
    });
    // No result ever came: the view read the plan itself (it knew the id from the input) and says why.
    expect(await cancelled.frame.textContent("h1")).toBe("[Scan] Cancelled call");
    expect(await cancelled.frame.textContent("main")).toContain("The call was cancelled (user action); this is the plan as it stands.");
    expect(await cancelled.frame.textContent("main")).not.toContain("Waiting for the plan");
    await cancelled.page.close();
    expect(pageErrors).toEqual([]);
  });

  it("opens from create_research_plan's result, fits a phone, and without tool access shows the review read-only", async () => {
    const { planId } = await planAwaitingReview("[Scan] Phone-width plan");
    const phone = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: false, size: PHONE });
    // No tool access and no full screen offered by this host: no buttons at all.
    expect(await phone.frame.locator("button").count()).toBe(0);
    expect(await phone.frame.textContent("section.review")).toContain("Answer this review in the chat or in Cairn's dashboard.");
    expect(await phone.frame.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(true);
    await phone.page.screenshot({ path: join(projectRoot, "node_modules", ".cache", "cairn-mcp-app-phone.png") });
    await phone.page.close();

    // create_research_plan's result carries the new plan's id: the app asks for its status through the host.
    const createArgs = {
      name: "[Deep] Created in chat",
      researchQuestion: "Does the view open on creation?",
      steps: [{ stepType: "search", instructions: "Look" }],
      planDesignRationale: "One step",
    };
    const created = await hostApp({ toolName: "create_research_plan", toolArguments: createArgs, serverTools: true });
    expect(await created.frame.textContent("h1")).toBe("[Deep] Created in chat");
    const calls = planCalls(await created.page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe("get_plan_status");
    await created.page.close();
    expect(pageErrors).toEqual([]);
  });
});
