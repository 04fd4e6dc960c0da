/**
 * The one seam between `npm run deploy` and Cloudflare: every call the deploy
 * makes goes through `wranglerRunner()(args)`, which runs the first `wrangler`
 * on PATH (`npm run` puts the project's own first; tests put a fake first).
 */
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { OFFLINE_ENV, projectRoot } from "./local.mjs";
import { wranglerCommand } from "./wrangler-command.mjs";

/** A deploy that cannot go on: the message says what happened and what to do. Exit code 1. */
export class DeployError extends Error {
  constructor(message) {
    super(message);
    this.name = "DeployError";
    this.exitCode = 1;
  }
}

/**
 * The one seam between the deploy and Cloudflare: runs `wrangler ARGS` with
 * stdin closed (wrangler then takes its non-interactive defaults) and returns
 * its exit code and output. The first `wrangler` on PATH, else the project's.
 * `input`, when given, is written to its stdin instead (how `wrangler secret put` takes a value without a prompt).
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string }} [options]
 * @returns {(args: string[], extraEnv?: Record<string, string>, options?: { input?: string }) => Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export function wranglerRunner({ env = process.env, cwd = projectRoot } = {}) {
  const { command, prefix } = wranglerCommand(env.PATH);
  return (args, extraEnv = {}, { input } = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, [...prefix, ...args], {
        cwd,
        env: { ...env, ...OFFLINE_ENV, FORCE_COLOR: "0", NO_COLOR: "1", ...extraEnv },
        stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
      if (input !== undefined) {
        // A wrangler that exits before reading all of it closes the pipe: its exit code says what happened.
        child.stdin.on("error", () => {});
        child.stdin.end(input);
      }
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) }));
    });
}

export const outputOf = (result) => [result.stderr.trim(), result.stdout.trim()].filter(Boolean).join("\n");

/** Parses JSON that wrangler printed, tolerating log lines before it. */
export function parseJsonOutput(result, what) {
  const text = result.stdout.trim();
  const start = text.search(/[[{]/);
  try {
    return JSON.parse(start > 0 ? text.slice(start) : text);
  } catch {
    throw new DeployError(`${what} printed something other than JSON:\n${outputOf(result)}`);
  }
}

