/**
 * A share link, as a person outside the org meets it: in a real browser (test/support/browser.ts), signed out, the
 * link made with the operator CLI opens the report with its sources and what Cairn found on them; once the link is
 * revoked (CLI), the same address is a 404. Screenshots go to node_modules/.cache (not git).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "../../scripts/lib/local.mjs";
import { findBrowser } from "../support/browser";
import { runCli } from "../support/cli";
import { restCaller, settledVerdicts } from "../support/e2e-rest";
import { startSourcePages } from "../support/source-pages.global";

const server = inject("server");
const call = restCaller(server);
const cli = (...args: string[]) => runCli(...args, "--org", server.orgSlug, "--url", server.url, "--persist-to", server.persistTo, "--json");
const screenshotDir = join(projectRoot, "node_modules", ".cache", "cairn-share-screenshots");

let pages: Awaited<ReturnType<typeof startSourcePages>>;
let userDataDir = "";
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  pages = await startSourcePages();
  const browser = await findBrowser();
  mkdirSync(screenshotDir, { recursive: true });
  userDataDir = mkdtempSync(join(tmpdir(), "cairn-share-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: browser.executablePath,
    ...(browser.env ? { env: { ...process.env, ...browser.env } } : {}),
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1100, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  // A CSP violation (the stylesheet is allowed by its hash) shows up as a console error.
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) pageErrors.push(message.text());
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await pages?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  console.log(`share screenshots: ${screenshotDir}`);
});

describe("a share link in Chromium, signed out", { timeout: 240_000 }, () => {
  it("opens the report with its verified sources, and after revocation is a 404", async () => {
    const created = await call("POST", "/plans", {
      name: "[Deep] Internal battery review",
      researchQuestion: "How dense are solid-state cells today?",
      steps: [{ stepType: "search", instructions: "Find the figures" }, { stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Find, then write",
    });
    expect(created.status).toBe(201);
    const planId = created.body.planId as string;
    const article = `${pages.origin}/article.html?share=${crypto.randomUUID().slice(0, 8)}`;
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    expect((await call("POST", `/plans/${planId}/evidence`, { evidence: [{ url: article, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote }] })).status).toBe(201);
    expect(await settledVerdicts(call, planId, 1)).toEqual(["verified"]);
    const stored = await call("POST", "/outputs", {
      planId,
      title: "Solid-state battery density",
      mediaType: "markdown",
      content: "# Where solid-state cells stand\n\n- Lab cells reached **500 Wh/kg** [E1].\n- Production cells are not there yet.",
    });
    expect(stored.status).toBe(201);
    const outputId = stored.body.outputId as string;

    const made = await cli("shares", "create", outputId, "--days", "7");
    expect(made.code, made.stderr).toBe(0);
    const share = JSON.parse(made.stdout) as { shareId: string; url: string };
    expect(share.url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);

    // Signed out: this browser has never signed in to the dashboard.
    expect(await context.cookies(server.url)).toEqual([]);
    const opened = await page.goto(share.url);
    expect(opened?.status()).toBe(200);
    await expect.poll(() => page.textContent("h1")).toBe("Solid-state battery density");
    expect(await page.textContent("#deliverable-content strong")).toBe("500 Wh/kg");
    expect(await page.textContent("#source-E1 .badge")).toBe("verified");
    expect(await page.textContent("#passage-E1 mark")).toContain("500 Wh/kg");
    expect(await page.textContent("#source-E1")).toContain("Last checked:");
    // The ref leads to the source on the page itself; nothing leads into the dashboard or names the plan.
    await page.click("a.ref");
    expect(new URL(page.url()).hash).toBe("#source-E1");
    const links = await page.$$eval("a", (anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
    expect(links.filter((href) => href.startsWith("/") || href.includes("/dashboard"))).toEqual([]);
    expect(await page.content()).not.toContain("Internal battery review");
    // The stylesheet applied under the page's CSP: the source card has its border.
    expect(await page.evaluate('getComputedStyle(document.getElementById("source-E1")).borderTopStyle')).toBe("solid");
    await page.screenshot({ path: join(screenshotDir, "share-page.png"), fullPage: true, caret: "initial" });

    const listed = await call("GET", `/outputs/${outputId}/shares`);
    expect((listed.body.shares as unknown[])[0]).toMatchObject({ shareId: share.shareId, status: "active", views: 1 });

    const revoked = await cli("shares", "revoke", outputId, share.shareId);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await page.goto(share.url);
    expect(after?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Not found");
    expect(await page.content()).not.toContain("Solid-state battery density");
    await page.screenshot({ path: join(screenshotDir, "share-revoked.png"), fullPage: true, caret: "initial" });
    expect(pageErrors).toEqual([]);
  });
});
