/**
 * The load generator: a separate Node process, so the client's CPU is not the
 * parent's (which hosts Miniflare). Closed loop: `concurrency` keep-alive
 * connections, each sending its next request as soon as the previous answer
 * is read. A warm-up phase on the same connections first, then a measured
 * phase of fixed duration; both stop by themselves.
 *
 * Usage: node bench/load.mjs '<json spec>'   → prints one JSON result line.
 * Spec: { port, host, method, path, headers, body?, expect: { contains, notContains? },
 *         concurrency, durationS, warmupS, serverPid? }
 * Only loopback: the spec's port is dialled on 127.0.0.1, whatever Host says.
 */
import { readFileSync } from "node:fs";
import http from "node:http";

const REQUEST_TIMEOUT_MS = 10_000;

/** Sends one request on the agent; resolves with { status, text, reused } or rejects on a socket error/timeout. */
function send(agent, spec, payload) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: "127.0.0.1", port: spec.port, method: spec.method, path: spec.path, headers: spec.requestHeaders },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode, text, reused: request.reusedSocket }));
        response.on("error", reject);
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on("error", reject);
    request.end(payload);
  });
}

/** Runs the closed loop until `deadline` (performance.now() ms). Returns counters and per-request latencies (ms). */
async function runPhase(agent, spec, payload, deadline) {
  const latencies = [];
  const tally = { ok: 0, non2xx: 0, bad: 0, errors: 0, newConnections: 0, firstFailure: null };
  const fail = (kind, detail) => {
    tally[kind]++;
    tally.firstFailure ??= `${kind}: ${detail}`.slice(0, 600);
  };
  async function connectionLoop() {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const { status, text, reused } = await send(agent, spec, payload);
        latencies.push(performance.now() - started);
        if (!reused) tally.newConnections++;
        if (status < 200 || status > 299) fail("non2xx", `HTTP ${status} ${text}`);
        else if (!text.includes(spec.expect.contains) || (spec.expect.notContains && text.includes(spec.expect.notContains))) fail("bad", text);
        else tally.ok++;
      } catch (error) {
        fail("errors", String(error?.message ?? error));
      }
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: spec.concurrency }, connectionLoop));
  return { ...tally, latencies, elapsedMs: performance.now() - started };
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux), or NaN.
 * Sampled around the measured phase for the workerd process, it tells whether
 * the server was busy computing or waiting.
 */
function cpuSecondsOf(pid) {
  if (!pid) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat (utime, stime) in clock ticks; 100 per second on Linux.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Busy and total CPU seconds of the whole machine so far (/proc/stat), or NaN. */
function machineCpuSeconds() {
  try {
    // First line: "cpu user nice system idle iowait irq softirq steal guest guest_nice" (guest is already in user).
    const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = ticks[3] + ticks[4]; // idle + iowait
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** Nearest-rank percentile of a sorted array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function runLoad(spec) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency, maxFreeSockets: spec.concurrency });
  const payload = spec.body ?? undefined;
  spec.requestHeaders = { ...spec.headers, host: spec.host, connection: "keep-alive" };
  if (payload !== undefined) spec.requestHeaders["content-length"] = String(Buffer.byteLength(payload));
  try {
    // Warm-up: opens the connections, JIT-compiles both sides, fills isolate caches. Counted for failures only.
    const warm = await runPhase(agent, spec, payload, performance.now() + spec.warmupS * 1000);
    const cpuBefore = process.cpuUsage();
    const serverCpuBefore = cpuSecondsOf(spec.serverPid);
    const machineBefore = machineCpuSeconds();
    const run = await runPhase(agent, spec, payload, performance.now() + spec.durationS * 1000);
    const cpu = process.cpuUsage(cpuBefore);
    const serverCpuS = cpuSecondsOf(spec.serverPid) - serverCpuBefore;
    const machineBusyS = machineCpuSeconds().busy - machineBefore.busy;
    const sorted = Float64Array.from(run.latencies).sort();
    return {
      requests: run.latencies.length,
      rps: (run.latencies.length / run.elapsedMs) * 1000,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
      ok: run.ok,
      non2xx: run.non2xx + warm.non2xx,
      bad: run.bad + warm.bad,
      errors: run.errors + warm.errors,
      firstFailure: warm.firstFailure ?? run.firstFailure,
      clientCpuPct: ((cpu.user + cpu.system) / 1000 / run.elapsedMs) * 100,
      // 100 % = one core; this machine has 2.
      serverCpuPct: ((serverCpuS * 1000) / run.elapsedMs) * 100,
      serverCpuMsPerRequest: (serverCpuS * 1000) / run.latencies.length,
      // CPU used by everything else on the machine meanwhile (other jobs skew every figure; 100 % = one core).
      // Clamped at 0: the three counters tick at 10 ms, so a quiet machine can come out slightly negative.
      otherCpuPct: Math.max(0, ((machineBusyS - serverCpuS - (cpu.user + cpu.system) / 1e6) * 1000 / run.elapsedMs) * 100),
      // Keep-alive check: connections opened while measuring (0 when every warm-up connection was reused).
      newConnections: run.newConnections,
    };
  } finally {
    agent.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const spec = JSON.parse(process.argv[2] ?? "{}");
  // Belt and braces: a run can never outlive its budget, even if a socket hangs.
  setTimeout(() => {
    console.error("load.mjs: overran its time budget");
    process.exit(3);
  }, (spec.warmupS + spec.durationS) * 1000 + REQUEST_TIMEOUT_MS + 15_000).unref();
  const result = await runLoad(spec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
