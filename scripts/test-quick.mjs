#!/usr/bin/env node
/**
 * `npm run test:quick`: the inner loop, a few minutes on two cores. Lint, the type check, the unit suite, and the
 * Workers test files that import (directly or not) a file changed since the base: Vitest's own changed-file
 * detection (`--changed BASE`: committed since the merge base with BASE, plus staged, unstaged and untracked files).
 * BASE: `--base REF`, else `origin/main` when there is such a remote branch, else `main`.
 * The end-to-end suite is not run: `npm test` runs everything before a submission.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const { values } = parseArgs({ options: { base: { type: "string" } }, strict: true });

const exists = (ref) => spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: root }).status === 0;
const base = values.base ?? ["origin/main", "main"].find(exists);
if (!base || !exists(base)) {
  console.error(`test:quick: no base to compare with (${values.base ?? "origin/main or main"}): pass --base REF.`);
  process.exit(2);
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(npm, args, { cwd: root, stdio: "inherit" });
    child.on("error", () => resolve(127));
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const steps = [
  ["lint", ["run", "--silent", "lint"]],
  ["typecheck", ["run", "--silent", "typecheck"]],
  ["unit", ["run", "--silent", "test:unit"]],
  [`workers (changed since ${base})`, ["run", "--silent", "test:workers", "--", "--changed", base, "--passWithNoTests"]],
];
const times = [];
let failed = null;
const started = performance.now();
for (const [name, args] of steps) {
  console.log(`\n› ${name}`);
  const stepStarted = performance.now();
  const code = await run(args);
  times.push(`${name}: ${((performance.now() - stepStarted) / 1000).toFixed(0)} s`);
  if (code !== 0) {
    failed = name;
    break;
  }
}
console.log(`\n${times.join("; ")}; in all ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed) {
  console.log(`test:quick failed at ${failed}`);
  process.exit(1);
}
console.log("test:quick passed (the end-to-end suite is not part of it: npm test before a submission)");
