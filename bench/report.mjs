/**
 * Turns repetitions into medians and prints Markdown tables (readable in a
 * terminal, pasteable into bench/README.md).
 */

export const GOALS = { minThroughputRatio: 0.5, maxP99Ratio: 3 };

export function median(values) {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const int = (value) => (Number.isFinite(value) ? String(Math.round(value)) : "–");
const verdict = (pass) => (pass ? "PASS" : "MISS");

export function table(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** One summary per (case, concurrency): medians over repetitions, failures summed. */
export function summarize(runs) {
  const groups = new Map();
  for (const run of runs) {
    const key = `${run.caseId}@${run.concurrency}`;
    if (!groups.has(key)) groups.set(key, { caseId: run.caseId, label: run.label, concurrency: run.concurrency, reps: [] });
    groups.get(key).reps.push(run);
  }
  return [...groups.values()].map((group) => {
    const pick = (field) => group.reps.map((rep) => rep.result[field]);
    const failures = group.reps.reduce((sum, rep) => sum + rep.result.non2xx + rep.result.bad + rep.result.errors, 0);
    return {
      ...group,
      rps: median(pick("rps")),
      rpsMin: Math.min(...pick("rps")),
      rpsMax: Math.max(...pick("rps")),
      p50: median(pick("p50")),
      p99: median(pick("p99")),
      clientCpuPct: median(pick("clientCpuPct")),
      serverCpuPct: median(pick("serverCpuPct")),
      serverCpuMsPerRequest: median(pick("serverCpuMsPerRequest")),
      otherCpuPct: median(pick("otherCpuPct")),
      requests: pick("requests").reduce((a, b) => a + b, 0),
      failures,
      firstFailure: group.reps.map((rep) => rep.result.firstFailure).find(Boolean) ?? null,
    };
  });
}

export function loadTable(summaries) {
  return table(
    ["case", "what", "conc", "req/s (median)", "req/s min–max", "p50 ms", "p99 ms", "failed", "workerd CPU %", "workerd CPU ms/req", "client CPU %", "other CPU %", "reps"],
    summaries.map((s) => [
      s.caseId,
      s.label,
      s.concurrency,
      int(s.rps),
      `${int(s.rpsMin)}–${int(s.rpsMax)}`,
      fixed(s.p50, 2),
      fixed(s.p99, 2),
      s.failures === 0 ? "0" : `**${s.failures} FAILED**`,
      int(s.serverCpuPct),
      fixed(s.serverCpuMsPerRequest, 2),
      int(s.clientCpuPct),
      int(s.otherCpuPct),
      s.reps.length,
    ]),
  );
}

/**
 * Ratios of each Cairn row to the bare row at the same concurrency, and the
 * goals for B. Ratios of medians; the range is over per-repetition ratios (A
 * and B run back to back in every repetition, so those pair up).
 */
export function ratioRows(summaries, runs) {
  const rows = [];
  const find = (caseId, concurrency) => summaries.find((s) => s.caseId === caseId && s.concurrency === concurrency);
  const perRep = (caseId, concurrency, field) => {
    const a = runs.filter((r) => r.caseId === "A" && r.concurrency === concurrency);
    const x = runs.filter((r) => r.caseId === caseId && r.concurrency === concurrency);
    return x.map((run) => {
      const partner = a.find((r) => r.rep === run.rep);
      return partner ? run.result[field] / partner.result[field] : Number.NaN;
    });
  };
  for (const concurrency of [...new Set(summaries.map((s) => s.concurrency))]) {
    const bare = find("A", concurrency);
    for (const caseId of ["B", "C", "D", "H"]) {
      const s = find(caseId, concurrency);
      if (!bare || !s) continue;
      const throughput = s.rps / bare.rps;
      const p50 = s.p50 / bare.p50;
      const p99 = s.p99 / bare.p99;
      const cpu = s.serverCpuMsPerRequest / bare.serverCpuMsPerRequest;
      const range = (field, digits) => {
        const values = perRep(caseId, concurrency, field).filter(Number.isFinite);
        return values.length > 1 ? ` (${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)})` : "";
      };
      const goals = caseId === "B";
      rows.push({
        caseId,
        concurrency,
        throughput,
        p50,
        p99,
        throughputPass: throughput >= GOALS.minThroughputRatio,
        p99Pass: p99 <= GOALS.maxP99Ratio,
        cells: [
          `${caseId}/A`,
          concurrency,
          `${fixed(throughput, 3)}${range("rps", 3)}`,
          goals ? verdict(throughput >= GOALS.minThroughputRatio) : "",
          `${fixed(p50, 1)}×${range("p50", 1)}`,
          `${fixed(p99, 1)}×${range("p99", 1)}`,
          goals ? verdict(p99 <= GOALS.maxP99Ratio) : "",
          `${fixed(cpu, 1)}×`,
        ],
      });
    }
  }
  return rows;
}

export function ratioTable(rows) {
  return table(
    [
      "ratio",
      "conc",
      "req/s ratio (per-rep range)",
      `goal ≥ ${GOALS.minThroughputRatio}`,
      "p50 ratio",
      "p99 ratio",
      `goal ≤ ${GOALS.maxP99Ratio}×`,
      // Less sensitive to other jobs on the machine than req/s: A needs workerd and the client, B mostly workerd.
      "workerd CPU ms/req ratio",
    ],
    rows.map((row) => row.cells),
  );
}

export function tokenTable(cost) {
  return table(
    ["tool", "tokens", "description", "inputSchema", "outputSchema", "annotations", "name/title/other"],
    [
      ...cost.perTool.map((t) => [t.name, t.total, t.description, t.inputSchema, t.outputSchema, t.annotations, t.other]),
      [`**all ${cost.count} (JSON array)**`, cost.total, "", "", "", "", ""],
    ],
  );
}

export const fmt = { fixed, int, verdict };
