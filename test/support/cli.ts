import { spawn } from "node:child_process";
import path from "node:path";
import { projectRoot, wranglerEnv } from "../../scripts/lib/local.mjs";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The operator CLI (`npm run cairn -- …`) as a user runs it, with the offline wrangler settings. */
export function runCli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, "scripts/cairn.mjs"), ...args], { cwd: projectRoot, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
