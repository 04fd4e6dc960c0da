import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "../../scripts/lib/local.mjs";
import { findBrowser } from "../support/browser";

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
    setTheme(theme: "light" | "dark"): void;
    calls: { name: string; arguments?: Record<string, unknown> }[];
  };
}

interface RpcResult {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

async function mcp(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${server.apiKey}`,
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
const callTool = (name: string, args: Record<string, unknown>) => mcp("tools/call", { name, arguments: args });
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
    presentation: "Shortlist: sqlite-vec, LanceDB, Chroma.",
    questions: ["Must it run fully offline?"],
  });
  return { planId, stepId: next.step.stepId };
}

async function hostApp(options: { toolName: string; toolArguments: Record<string, unknown>; serverTools: boolean; theme?: "light" | "dark"; size?: typeof DESKTOP }) {
  const page: Page = await context.newPage();
  await page.setViewportSize(options.size ?? DESKTOP);
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.exposeFunction("forwardToolCall", async (call: { name: string; arguments?: Record<string, unknown> }) => callTool(call.name, call.arguments ?? {}));
  await page.setContent("<!doctype html><html><body style='margin:0'></body></html>");
  await page.addScriptTag({ content: hostScript });
  const html = ((await mcp("resources/read", { uri: "ui://cairn/plan-view.html" })).contents as { text: string }[])[0]?.text ?? "";
  const toolResult = await callTool(options.toolName, options.toolArguments);
  await page.evaluate((start) => (globalThis as unknown as HostWindow).cairnHost.start(start), {
    html,
    toolName: options.toolName,
    toolArguments: options.toolArguments,
    toolResult,
    serverTools: options.serverTools,
    theme: options.theme ?? "light",
  });
  const frame = await waitForFrame(page);
  return { page, frame };
}

async function waitForFrame(page: Page): Promise<Frame> {
  await page.waitForSelector("iframe#app");
  for (let i = 0; i < 100; i++) {
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
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
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it("shows progress, steps and the pending review from a real get_plan_status result; Approve sends exactly submit_review", async () => {
    const { planId, stepId } = await planAwaitingReview("[Scan] App-hosted plan");
    const { page, frame } = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: true });
    expect(await frame.textContent("h1")).toBe("[Scan] App-hosted plan");
    expect(await frame.getAttribute("[role=progressbar]", "aria-valuenow")).toBe("0");
    expect(await frame.locator("li.step").count()).toBe(2);
    expect(await frame.textContent(`section.review[data-step="${stepId}"]`)).toContain("Must it run fully offline?");
    // The README's picture of the view, refreshed deliberately (UPDATE_DOCS_SCREENSHOTS=1).
    if (process.env.UPDATE_DOCS_SCREENSHOTS === "1") {
      await page.setViewportSize({ width: 720, height: 640 });
      await page.locator("iframe#app").screenshot({ path: join(projectRoot, "docs", "images", "mcp-app-plan.png") });
    }

    await frame.click("button:text-is('Approve')");
    await frame.waitForSelector("text=Review sent: approve.");
    const calls = await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls);
    expect(calls[0]).toEqual({ name: "submit_review", arguments: { planId, stepId, decision: "approve" } });
    // The app then refreshed through the host: the review is gone and step 1 is done, on the server too.
    expect(calls[1]).toEqual({ name: "get_plan_status", arguments: { planId } });
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
    expect(await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls.length)).toBe(0);
    await frame.fill("textarea", "Add DuckDB to the shortlist");
    await frame.click("button:text-is('Revise')");
    await frame.waitForSelector("text=Review sent: revise.");
    expect((await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls))[0]).toEqual({
      name: "submit_review",
      arguments: { planId, stepId, decision: "revise", feedback: "Add DuckDB to the shortlist" },
    });
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
    expect(card).toContain("1. [search] Shortlist embedded vector databases");
    expect(card).toContain("Design rationale: Shortlist, then recommend");
    await frame.click("button:text-is('Approve')");
    await frame.waitForSelector("text=Review sent: approve.");
    const calls = await page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls);
    expect(calls[0]).toEqual({ name: "submit_review", arguments: { planId, stepId: reviewId, decision: "approve" } });
    expect(await frame.locator("section.review").count()).toBe(0);
    expect((await structured("get_next_step", { planId })).status).toBe("step");
    await page.close();
  });

  it("opens from create_research_plan's result, fits a phone, and without tool access shows the review read-only", async () => {
    const { planId } = await planAwaitingReview("[Scan] Phone-width plan");
    const phone = await hostApp({ toolName: "get_plan_status", toolArguments: { planId }, serverTools: false, size: PHONE });
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
    const calls = await created.page.evaluate(() => (globalThis as unknown as HostWindow).cairnHost.calls);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe("get_plan_status");
    await created.page.close();
    expect(pageErrors).toEqual([]);
  });
});
