/**
 * Runs the hostile pages (hostile-pages.mjs) against a real local Cairn and watches its workerd: the sources
 * are recorded through the REST API, each page served on loopback, and the verdicts awaited while workerd's
 * resident memory is sampled from /proc. Shared by test/e2e/hostile-pages.test.ts and bench/checks-hostile.mjs.
 * Linux only (/proc).
 */
import { readdirSync, readFileSync } from "node:fs";
import { HOSTILE_QUOTE } from "./hostile-pages.mjs";

/** Time within which every hostile page must have a verdict (not pending), from when its source is recorded. */
export const HOSTILE_VERDICT_WITHIN_MS = 120_000;
/** How much workerd's resident memory may grow over its level before the hostile pages (the old guard let a PDF bomb add ~800 MiB). */
export const HOSTILE_MEMORY_BOUND_MIB = 256;


function processes() {
  const all = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      all.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      // gone since listed
    }
  }
  return all;
}

/** The workerd processes of the `wrangler dev` listening on `port` (its descendants, found through the process tree). */
export function workerdPids(port) {
  const all = processes();
  const roots = all.filter((p) => p.cmdline.some((arg, i) => arg === "--port" && p.cmdline[i + 1] === String(port)) && p.cmdline.includes("dev"));
  const found = new Set();
  const children = (pid) => all.filter((p) => p.ppid === pid);
  const walk = (pid) => {
    for (const child of children(pid)) {
      if (child.cmdline.some((arg) => /workerd$/.test(arg))) found.add(child.pid);
      walk(child.pid);
    }
  };
  // `wrangler dev` runs as a launcher and its child, both with the port: each workerd is counted once.
  for (const root of roots) walk(root.pid);
  return [...found];
}

/** The summed VmRSS and VmHWM (peak) of `pids`, in MiB. */
export function memoryMiB(pids) {
  let rss = 0;
  let hwm = 0;
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
      hwm += Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      // the process ended: it holds nothing
    }
  }
  return { rss, hwm };
}

/**
 * Samples the memory of `pids` every `everyMs` until stopped: the level at the start, and the peak growth over it
 * (the larger of the sampled RSS and the kernel's VmHWM, which catches a peak between samples, less their start).
 */
export function watchMemory(pids, everyMs = 100) {
  const start = memoryMiB(pids);
  let peakRss = start.rss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, memoryMiB(pids).rss);
  }, everyMs);
  return {
    baselineMiB: start.rss,
    stop() {
      clearInterval(timer);
      const end = memoryMiB(pids);
      peakRss = Math.max(peakRss, end.rss);
      return { baselineMiB: start.rss, peakGrowthMiB: Math.max(peakRss - start.rss, end.hwm - start.hwm), alive: pids.every((pid) => existsProcess(pid)) };
    },
  };
}

function existsProcess(pid) {
  try {
    readFileSync(`/proc/${pid}/status`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Records one source per case (quoting HOSTILE_QUOTE, which each page ends with) on a new plan through Cairn's
 * REST API at `url`, and waits up to `withinMs` for every verdict. Returns each case's verdict and the
 * milliseconds from recording to it (`pending` and null when none came).
 */
export async function checkHostileCases({ url, apiKey, origin, cases, withinMs = HOSTILE_VERDICT_WITHIN_MS }) {
  const call = async (method, path, body, timeoutMs = 30_000) => {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = await response.json();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const plan = await call("POST", "/plans", {
    name: "[Deep] Hostile pages",
    researchQuestion: "Does a hostile page exhaust the source checker?",
    steps: [{ stepType: "search", instructions: "Cite the pages" }],
    planDesignRationale: "One source per hostile page",
    citationPolicy: "report",
  });
  const run = Math.random().toString(36).slice(2, 10);
  const started = Date.now();
  await call("POST", `/plans/${plan.planId}/evidence`, {
    evidence: cases.map((item) => ({ url: `${origin}${item.path}?run=${run}`, title: "Survey", facts: item.name, subtopic: "Hostile pages", quote: HOSTILE_QUOTE })),
  });
  const results = cases.map((item) => ({ name: item.name, status: "pending", ms: null }));
  while (Date.now() - started < withinMs && results.some((result) => result.status === "pending")) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    // A Worker busy with a check may answer late: a read that times out is tried again until the deadline.
    const ledger = await call("GET", `/plans/${plan.planId}/ledger`, undefined, 10_000).catch(() => null);
    (ledger?.evidence ?? []).forEach((source, i) => {
      const result = results[i];
      if (result && result.status === "pending" && source.verification !== "pending") {
        result.status = source.verification;
        result.ms = Date.now() - started;
      }
    });
  }
  return results;
}
