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
 * Cycle mode (rows P and M): { mode: "cycle", cycle: { planSteps }, setupBudgetS, … } instead of
 * body/expect: each connection runs its own research plans, alternating
 * `get_next_step` and `submit_step_result` for the step it got (see cycle.mjs
 * and "Cycle mode" below).
 * Only loopback: the spec's port is dialled on 127.0.0.1, whatever Host says.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import { BadResponse, bodies, checks } from "./cycle.mjs";

const REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_SETUP_BUDGET_S = 30;

/** Extra seconds a run may take beyond warm-up + duration: cycle mode creates plans twice, each within the setup budget. */
export const setupAllowanceS = (spec) => (spec.mode === "cycle" ? 2 * (spec.setupBudgetS ?? DEFAULT_SETUP_BUDGET_S) : 0);

/** Sends one request on the agent; resolves with { status, contentType, text, reused } or rejects on a socket error/timeout. */
function send(agent, spec, payload, headers = spec.requestHeaders) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: "127.0.0.1", port: spec.port, method: spec.method, path: spec.path, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode, contentType: response.headers["content-type"], text, reused: request.reusedSocket }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on("error", reject);
    request.end(payload);
  });
}

const newTally = () => ({ ok: 0, non2xx: 0, bad: 0, errors: 0, newConnections: 0, firstFailure: null, latencies: [] });

function failer(tally) {
  return (kind, detail) => {
    tally[kind]++;
    tally.firstFailure ??= `${kind}: ${detail}`.slice(0, 600);
  };
}

/** Fixed mode: the same request over and over. Returns counters and per-request latencies (ms). */
function fixedDriver(agent, spec) {
  const payload = spec.body ?? undefined;
  spec.requestHeaders = { ...spec.headers, host: spec.host, connection: "keep-alive" };
  if (payload !== undefined) spec.requestHeaders["content-length"] = String(Buffer.byteLength(payload));
  /** Runs the closed loop until `deadline` (performance.now() ms). */
  async function phase(deadline) {
    const tally = newTally();
    const { latencies } = tally;
    const fail = failer(tally);
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
    return { ...tally, elapsedMs: performance.now() - started };
  }
  return { phase };
}

/**
 * Cycle mode (rows P and M). Each of the `concurrency` closed loops is one
 * worker with its OWN plans (a plan hands out one step at a time, so two
 * workers on one plan would wait for each other): it sends `get_next_step`,
 * then `submit_step_result` with the stepId and claimId it got, and so on.
 * When a submission finishes the plan (or get_next_step answers anything but
 * a step: plan_complete, waiting, …) the worker moves to its next plan. A
 * worker's state (plan, claimed step) carries over from warm-up to the
 * measured phase, so the measured phase may open with a submission.
 *
 * Plans are created outside the measured phase: one per worker before the
 * warm-up, then, between warm-up and measurement, enough for 2.5× the
 * warm-up's fastest worker rate over the measured duration (+1), all within
 * `setupBudgetS`. A worker that still runs dry creates a plan inline; those
 * creations are not counted as calls but their time is inside the measured
 * phase, so the result reports them (`inlineCreates`; expected 0).
 *
 * Every response is parsed and checked in full (cycle.mjs `checks`): a
 * JSON-RPC result, a successful tool result, the expected fields. A failed
 * call makes the worker drop its plan (its state is then unknown).
 */
function cycleDriver(agent, spec) {
  const { planSteps } = spec.cycle;
  const baseHeaders = { ...spec.headers, host: spec.host, connection: "keep-alive" };
  const post = (body) => send(agent, spec, body, { ...baseHeaders, "content-length": String(Buffer.byteLength(body)) });
  const workers = Array.from({ length: spec.concurrency }, () => ({ queue: [], planId: null, pending: null }));
  const setup = { plansCreated: 0, setupMs: 0, setupFailures: 0, setupFailure: null };

  async function createPlan() {
    const response = await post(bodies.create(planSteps));
    return checks.create(response.status, response.contentType, response.text, planSteps);
  }

  /** Gives every worker at least `count` queued plans, creating them over its own loop; stops at `deadline`. */
  async function topUp(count, deadline) {
    const started = performance.now();
    await Promise.all(
      workers.map(async (worker) => {
        while (worker.queue.length < count && performance.now() < deadline) {
          try {
            worker.queue.push(await createPlan());
            setup.plansCreated++;
          } catch (error) {
            setup.setupFailures++;
            setup.setupFailure ??= `create_research_plan (setup): ${String(error?.message ?? error)}`.slice(0, 600);
            if (setup.setupFailures > 20) throw new Error(`cannot create plans: ${setup.setupFailure}`);
          }
        }
      }),
    );
    setup.setupMs += performance.now() - started;
  }

  async function phase(deadline) {
    const tally = {
      ...newTally(),
      cycles: 0,
      nonStep: 0,
      plansFinished: 0,
      inlineCreates: 0,
      inlineCreateMs: 0,
      nextLatencies: [],
      submitLatencies: [],
      cycleLatencies: [],
      workerCycles: workers.map(() => 0),
    };
    const fail = failer(tally);
    async function workerLoop(worker, index) {
      let cycleStarted = null;
      while (performance.now() < deadline) {
        try {
          if (!worker.planId) {
            if (worker.queue.length === 0) {
              const started = performance.now();
              worker.queue.push(await createPlan());
              tally.inlineCreates++;
              tally.inlineCreateMs += performance.now() - started;
              continue;
            }
            worker.planId = worker.queue.shift();
          }
          const started = performance.now();
          if (!worker.pending) {
            const response = await post(bodies.next(worker.planId));
            const ms = performance.now() - started;
            tally.latencies.push(ms);
            tally.nextLatencies.push(ms);
            if (!response.reused) tally.newConnections++;
            const next = checks.next(response.status, response.contentType, response.text);
            tally.ok++;
            if (next.status === "step") {
              worker.pending = next;
              cycleStarted = started;
            } else {
              tally.nonStep++;
              worker.planId = null;
            }
          } else {
            const { stepId, claimId, stepOrder } = worker.pending;
            worker.pending = null;
            const response = await post(bodies.submit(worker.planId, stepId, claimId, stepOrder));
            const ms = performance.now() - started;
            tally.latencies.push(ms);
            tally.submitLatencies.push(ms);
            if (!response.reused) tally.newConnections++;
            const submitted = checks.submit(response.status, response.contentType, response.text, stepId);
            tally.ok++;
            tally.cycles++;
            tally.workerCycles[index]++;
            if (cycleStarted !== null) tally.cycleLatencies.push(performance.now() - cycleStarted);
            cycleStarted = null;
            if (submitted.planDone) {
              tally.plansFinished++;
              worker.planId = null;
            }
          }
        } catch (error) {
          if (error instanceof BadResponse) fail(error.kind, error.message);
          else fail("errors", String(error?.message ?? error));
          // The plan's state is unknown after a failed call: move on to the next one.
          worker.planId = null;
          worker.pending = null;
          cycleStarted = null;
        }
      }
    }
    const started = performance.now();
    await Promise.all(workers.map(workerLoop));
    return { ...tally, elapsedMs: performance.now() - started };
  }

  const setupDeadline = () => performance.now() + (spec.setupBudgetS ?? DEFAULT_SETUP_BUDGET_S) * 1000;
  return {
    phase,
    /** Plan creations that failed outside the phases: they count as failed requests too. */
    setupFailures: () => ({ count: setup.setupFailures, first: setup.setupFailure }),
    /** Before the warm-up: one plan per worker (this also opens the connections). */
    before: () => topUp(1, setupDeadline()),
    /** Between warm-up and measurement: plans for 2.5× the fastest worker's warm-up rate (warm-up is slower: JIT, other jobs). */
    between(warm) {
      const fastest = Math.max(...warm.workerCycles) / (warm.elapsedMs / 1000);
      const needed = Math.ceil((fastest * spec.durationS * 2.5) / planSteps) + 1;
      return topUp(needed, setupDeadline());
    },
    /** Cycle figures of the measured phase (the call figures are the common ones). */
    extra(run, serverCpuS) {
      const seconds = run.elapsedMs / 1000;
      const sorted = (values) => Float64Array.from(values).sort();
      const cycles = sorted(run.cycleLatencies);
      const workerRates = run.workerCycles.map((count) => count / seconds).sort((a, b) => a - b);
      return {
        planSteps,
        cycles: run.cycles,
        cyclesPerS: run.cycles / seconds,
        perPlanCyclesPerS: run.cycles / seconds / spec.concurrency,
        workerCyclesPerSMin: workerRates[0],
        workerCyclesPerSMax: workerRates[workerRates.length - 1],
        cycleP50: percentile(cycles, 50),
        cycleP99: percentile(cycles, 99),
        nextP50: percentile(sorted(run.nextLatencies), 50),
        nextP99: percentile(sorted(run.nextLatencies), 99),
        submitP50: percentile(sorted(run.submitLatencies), 50),
        submitP99: percentile(sorted(run.submitLatencies), 99),
        serverCpuMsPerCycle: (serverCpuS * 1000) / run.cycles,
        nonStep: run.nonStep,
        plansFinished: run.plansFinished,
        inlineCreates: run.inlineCreates,
        inlineCreateMs: run.inlineCreateMs,
        plansCreated: setup.plansCreated,
        setupMs: setup.setupMs,
      };
    },
  };
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
  const driver = spec.mode === "cycle" ? cycleDriver(agent, spec) : fixedDriver(agent, spec);
  try {
    await driver.before?.();
    // Warm-up: opens the connections, JIT-compiles both sides, fills isolate caches. Counted for failures only.
    const warm = await driver.phase(performance.now() + spec.warmupS * 1000);
    await driver.between?.(warm);
    const cpuBefore = process.cpuUsage();
    const serverCpuBefore = cpuSecondsOf(spec.serverPid);
    const machineBefore = machineCpuSeconds();
    const run = await driver.phase(performance.now() + spec.durationS * 1000);
    const cpu = process.cpuUsage(cpuBefore);
    const serverCpuS = cpuSecondsOf(spec.serverPid) - serverCpuBefore;
    const machineBusyS = machineCpuSeconds().busy - machineBefore.busy;
    const sorted = Float64Array.from(run.latencies).sort();
    const setupFailures = driver.setupFailures?.() ?? { count: 0, first: null };
    return {
      requests: run.latencies.length,
      rps: (run.latencies.length / run.elapsedMs) * 1000,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
      ok: run.ok,
      non2xx: run.non2xx + warm.non2xx,
      bad: run.bad + warm.bad + setupFailures.count,
      errors: run.errors + warm.errors,
      firstFailure: setupFailures.first ?? warm.firstFailure ?? run.firstFailure,
      clientCpuPct: ((cpu.user + cpu.system) / 1000 / run.elapsedMs) * 100,
      // 100 % = one core; this machine has 2.
      serverCpuPct: ((serverCpuS * 1000) / run.elapsedMs) * 100,
      serverCpuMsPerRequest: (serverCpuS * 1000) / run.latencies.length,
      // CPU used by everything else on the machine meanwhile (other jobs skew every figure; 100 % = one core).
      // Clamped at 0: the three counters tick at 10 ms, so a quiet machine can come out slightly negative.
      otherCpuPct: Math.max(0, ((machineBusyS - serverCpuS - (cpu.user + cpu.system) / 1e6) * 1000 / run.elapsedMs) * 100),
      // Keep-alive check: connections opened while measuring (0 when every warm-up connection was reused).
      newConnections: run.newConnections,
      ...driver.extra?.(run, serverCpuS),
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
  }, (spec.warmupS + spec.durationS + setupAllowanceS(spec)) * 1000 + REQUEST_TIMEOUT_MS + 15_000).unref();
  const result = await runLoad(spec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
