#!/usr/bin/env node
/**
 * `npm run test:quick`: the inner loop, minutes on two cores. Lint, the type check, the unit suite, and the Workers
 * test files that import a file changed since the base, found by Vitest's own changed-file detection (`--changed
 * BASE`: committed since the merge base with BASE, plus staged, unstaged and untracked files), listed with the
 * Worker's entry as a boundary (vitest.workers.config.ts: nearly every file reaches the entry, which imports every
 * module); plus the Workers test files named after a changed file or its folder (src/platform/webhooks/… →
 * webhooks.test.ts). BASE: `--base REF`, else `origin/main` when there is such a remote branch, else `main`.
 * The end-to-end suite and the Workers files that reach a change only through the entry are npm test's.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const { values } = parseArgs({ options: { base: { type: "string" } }, strict: true });

const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
const exists = (ref) => git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`).status === 0;
const base = values.base ?? ["origin/main", "main"].find(exists);
if (!base || !exists(base)) {
  console.error(`test:quick: no base to compare with (${values.base ?? "origin/main or main"}): pass --base REF.`);
  process.exit(2);
}

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", () => resolve(127));
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** The Workers test files to run: Vitest's --changed listing (with the entry as a boundary), plus those named after a change. */
async function changedWorkersFiles() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-quick-"));
  try {
    const listing = path.join(dir, "files.json");
    const code = await run(npx, ["vitest", "list", "--config", "vitest.workers.config.ts", "--filesOnly", "--changed", base, `--json=${listing}`], { CAIRN_CHANGED_BOUNDARY: "1" });
    if (code !== 0) return null;
    const listed = JSON.parse(readFileSync(listing, "utf8")).map((entry) => path.relative(root, entry.file));
    const changed = [git("diff", "--name-only", `${base}...HEAD`), git("diff", "--name-only", "--cached"), git("ls-files", "--other", "--modified", "--exclude-standard")]
      .flatMap((result) => result.stdout.split("\n"))
      .filter(Boolean);
    const names = new Set(changed.filter((file) => file.startsWith("src/")).flatMap((file) => [path.basename(file).replace(/(\.test)?\.tsx?$/, ""), path.basename(path.dirname(file))]));
    const all = git("ls-files", "test/workers", "src").stdout.split("\n").filter((file) => /^(test\/workers|src\/(operations|mcp|rest|durable-objects))\/.*\.test\.ts$/.test(file));
    const named = all.filter((file) => names.has(path.basename(file, ".test.ts")));
    return [...new Set([...listed, ...named])].sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const times = [];
const started = performance.now();
const step = async (name, action) => {
  console.log(`\n› ${name}`);
  const stepStarted = performance.now();
  const code = await action();
  times.push(`${name} ${((performance.now() - stepStarted) / 1000).toFixed(0)} s`);
  if (code !== 0) {
    console.log(`\n${times.join(", ")}\ntest:quick failed at ${name}`);
    process.exit(1);
  }
};

await step("lint", () => run(npm, ["run", "--silent", "lint"]));
await step("typecheck", () => run(npm, ["run", "--silent", "typecheck"]));
await step("unit", () => run(npm, ["run", "--silent", "test:unit"]));
await step(`workers (files for what changed since ${base})`, async () => {
  const files = await changedWorkersFiles();
  if (files === null) return 1;
  console.log(files.length ? `${files.length} Workers test files:\n  ${files.join("\n  ")}` : "No Workers test file imports what changed.");
  return files.length ? run(npm, ["run", "--silent", "test:workers", "--", ...files]) : 0;
});
console.log(`\n${times.join(", ")}; in all ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log("test:quick passed (not run: the end-to-end suite and Workers files that reach the change only through the entry: npm test before a submission)");
