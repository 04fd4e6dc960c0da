import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort, projectRoot, wranglerEnv } from "../../scripts/lib/local.mjs";

/**
 * `npm start` as a newcomer sees it: migrations, seed, wrangler dev, then one banner. Its own
 * --persist-to directory; the demo credentials file under .wrangler/ is reused as `npm start` does.
 */

const persistTo = mkdtempSync(path.join(os.tmpdir(), "cairn-e2e-start-"));

afterAll(() => {
  rmSync(persistTo, { recursive: true, force: true });
});

/** Runs scripts/start.mjs until its banner closes, runs `whileUp`, then stops it with Ctrl-C (SIGINT to its group). */
async function startAndStop(port: number, whileUp: (banner: string) => Promise<void>): Promise<{ output: string; code: number | null }> {
  const child = spawn(process.execPath, [path.join(projectRoot, "scripts/start.mjs"), "--port", String(port), "--persist-to", persistTo], {
    cwd: projectRoot,
    env: wranglerEnv({ FORCE_COLOR: "0", NO_COLOR: "1" }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const bannerClosed = new Promise<void>((resolve) => {
    const collect = (chunk: string) => {
      output += chunk;
      if (output.includes("Press Ctrl-C to stop.")) resolve();
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  try {
    await Promise.race([bannerClosed, exited.then(() => Promise.reject(new Error(`npm start exited early:\n${output}`)))]);
    // Wrangler prints late lines (a second bindings table, warnings) just after Ready; give them time to show.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await whileUp(stripVTControlCharacters(output));
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGINT");
  }
  const code = await exited;
  return { output: stripVTControlCharacters(output), code };
}

describe("npm start", { timeout: 150_000 }, () => {
  it("prints the bindings once, no warning, and one banner with the cron's manual trigger; Ctrl-C stops it", async () => {
    const port = await findFreePort();
    let cron = "";
    let approval = { status: 0, code: "" };
    const { output, code } = await startAndStop(port, async (banner) => {
      cron = await (await fetch(`http://localhost:${port}/__scheduled?cron=*/5+*+*+*+*`)).text();
      // The printed key is the assistant's: it creates a plan that needs approval but cannot approve it.
      const key = /Demo API key {5}(cairn_\S+)/.exec(banner)?.[1] ?? "";
      const api = async (method: string, route: string, body: unknown) => {
        const response = await fetch(`http://localhost:${port}/api/v1${route}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
        return (await response.json()) as Record<string, unknown> & { status?: number };
      };
      const plan = await api("POST", "/plans", { name: "[Scan] Demo key", researchQuestion: "Q?", steps: [{ stepType: "search", instructions: "Look" }], planDesignRationale: "R", approval: "required" });
      const { pendingReviews } = (await api("GET", `/plans/${plan.planId}`, undefined)) as unknown as { pendingReviews: { reviewId: string }[] };
      const answered = await api("POST", `/plans/${plan.planId}/steps/${pendingReviews[0]?.reviewId}/review`, { decision: "approve", planVersion: 1 });
      approval = { status: Number(answered.status), code: String(answered.code) };
    });
    expect([0, 130], output).toContain(code); // stopped by Ctrl-C, not crashed
    expect(output.match(/has access to the following bindings/g), output).toHaveLength(1);
    expect(output).not.toMatch(/WARNING|Connection status updated/);
    expect(output.match(/Cairn is running/g)).toHaveLength(1);
    // One host everywhere: wrangler's own Ready line, the banner and the docs say localhost (OAuth binds to it).
    expect(output).toMatch(new RegExp(`Ready on http://localhost:${port}`));
    expect(output).not.toContain("127.0.0.1");
    expect(output).toMatch(/Demo API key {5}cairn_/);
    // The banner's scopes are the key's, never plans:approve: approving is the person's, on the dashboard.
    expect(output).toContain("scopes research:read research:write org:admin;");
    expect(approval).toEqual({ status: 403, code: "forbidden" });
    // The cron trigger the banner names runs the Worker's scheduled handler.
    expect(output).toContain(`Crons, by hand   http://localhost:${port}/__scheduled?cron=*/5+*+*+*+*`);
    expect(output).toContain(`http://localhost:${port}/__scheduled?cron=23+3+*+*+*`);
    expect(cron).toBe("Ran scheduled event");
  });
});
