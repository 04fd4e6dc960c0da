import { spawn } from "node:child_process";
import { createServer } from "node:http";
import path from "node:path";
import { projectRoot, wranglerEnv } from "../../scripts/lib/local.mjs";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook receiver on loopback (plain http is allowed to loopback in
 * development): it records what arrives and answers 204. The test checks the
 * signatures itself, with the Standard Webhooks reference library.
 */
export async function startReceiver() {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value;
      received.push({ path: request.url ?? "", headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the receiver has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    /** Waits until `done(received)` holds (20 s at most) and returns what arrived. */
    async waitFor(done: (all: ReceivedWebhook[]) => boolean, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
      const until = Date.now() + timeoutMs;
      while (!done(received)) {
        if (Date.now() > until) throw new Error(`webhooks did not arrive in time; got ${received.map((r) => r.body.slice(0, 60)).join(" | ") || "nothing"}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return [...received];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The operator CLI (`npm run cairn -- …`) as a user runs it. */
export function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
