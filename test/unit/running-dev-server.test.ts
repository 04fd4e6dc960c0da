import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningDevServer, runningServerFile } from "../../scripts/lib/local.mjs";

/** A stand-in for `wrangler dev`: GET /health answers `status`. */
let health = 200;
let server: Server;
let url = "";
const state = mkdtempSync(join(tmpdir(), "cairn-running-"));

beforeAll(async () => {
  server = createServer((_request, response) => response.writeHead(health).end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  url = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(state, { recursive: true, force: true });
});

const announce = (record: Record<string, unknown>) => writeFileSync(runningServerFile(state), JSON.stringify(record));

describe("the operator CLI finds the local server already running on its state", () => {
  it("uses a live loopback server of the same configuration that answers its health check", async () => {
    expect(runningServerFile(state)).toBe(join(state, "cairn-dev-server.json"));
    expect(await runningDevServer({ persistTo: state }), "no file: none running").toBeNull();
    announce({ url, pid: process.pid, config: null });
    expect(await runningDevServer({ persistTo: state })).toBe(url);
  });

  it("starts its own when the process is gone, the server does not answer, or it serves another configuration or host", async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    announce({ url, pid: gone, config: null });
    expect(await runningDevServer({ persistTo: state }), "process gone").toBeNull();

    announce({ url, pid: process.pid, config: null });
    health = 503;
    expect(await runningDevServer({ persistTo: state }), "unhealthy").toBeNull();
    health = 200;

    expect(await runningDevServer({ persistTo: state, config: "wrangler.production.toml" }), "other configuration").toBeNull();
    announce({ url: url.replace("127.0.0.1", "example.com"), pid: process.pid, config: null });
    expect(await runningDevServer({ persistTo: state }), "not loopback").toBeNull();
    writeFileSync(runningServerFile(state), "{not json");
    expect(await runningDevServer({ persistTo: state }), "unreadable").toBeNull();
  });
});
