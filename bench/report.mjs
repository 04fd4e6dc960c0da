/**
 * Turns repetitions into medians and prints Markdown tables (readable in a
 * terminal, pasteable into bench/README.md).
 */

export const GOALS = {
  // P1, row B (the MCP read), at each concurrency: workerd CPU per call and req/s against the bare row A,
  // and req/s against row T (the same read on Cloudflare's remote-MCP template pattern).
  readMaxCpuRatio: 10,
  readMinThroughputRatio: 0.1,
  readMinTemplateRatio: 1.5,
  // P2, row P (the plan step cycle), per call: workerd CPU against A; one plan alone (row M at 1): p50 per call.
  stepMaxCpuRatio: 20,
  soloStepMaxP50Ms: 2,
  // Row M: plans are independent if, going from few plans at once to many, the workerd CPU per cycle stays
  // within this factor and the aggregate reaches this share of what linear scaling (capped at one busy
  // workerd core, which is all this harness has) would give. See README "Rows P and M".
  maxCpuPerCycleGrowth: 1.25,
  minScalingEfficiency: 0.8,
};

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
/** Fields only cycle runs have (rows P and M), summarized like the others: medians over repetitions. */
const CYCLE_FIELDS = [
  "cyclesPerS",
  "perPlanCyclesPerS",
  "workerCyclesPerSMin",
  "workerCyclesPerSMax",
  "cycleP50",
  "cycleP99",
  "nextP50",
  "nextP99",
  "submitP50",
  "submitP99",
  "serverCpuMsPerCycle",
];
const CYCLE_COUNTS = ["cycles", "nonStep", "plansFinished", "inlineCreates", "plansCreated"];

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
    const isCycle = group.reps.every((rep) => rep.result.cyclesPerS !== undefined);
    const cycle = isCycle
      ? {
          ...Object.fromEntries(CYCLE_FIELDS.map((field) => [field, median(pick(field))])),
          ...Object.fromEntries(CYCLE_COUNTS.map((field) => [field, pick(field).reduce((a, b) => a + b, 0)])),
          planSteps: group.reps[0].result.planSteps,
          cyclesPerSMin: Math.min(...pick("cyclesPerS")),
          cyclesPerSMax: Math.max(...pick("cyclesPerS")),
        }
      : {};
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
      ...cycle,
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

/** The goals of a row in the ratio table, if it has any. */
const rowGoals = (caseId) =>
  ({ B: { throughput: GOALS.readMinThroughputRatio, cpu: GOALS.readMaxCpuRatio }, P: { cpu: GOALS.stepMaxCpuRatio } })[caseId] ?? {};

/**
 * Ratios of each other row to the bare row at the same concurrency, and the
 * goals for B (P1: CPU per call and throughput) and P (P2: CPU per call). P and
 * M count calls, so their ratios are per call (a cycle is two calls). Ratios of
 * medians; the range is over per-repetition ratios (A and every row run back
 * to back in every repetition, so those pair up).
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
    for (const caseId of ["B", "C", "D", "L", "H", "T", "P", "M"]) {
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
      const goals = rowGoals(caseId);
      rows.push({
        caseId,
        concurrency,
        throughput,
        cpu,
        p50,
        p99,
        throughputPass: goals.throughput !== undefined && throughput >= goals.throughput,
        cpuPass: goals.cpu !== undefined && cpu <= goals.cpu,
        cells: [
          `${caseId}/A`,
          concurrency,
          `${fixed(throughput, 3)}${range("rps", 3)}`,
          goals.throughput !== undefined ? `≥ ${goals.throughput}: ${verdict(throughput >= goals.throughput)}` : "",
          `${fixed(p50, 1)}×${range("p50", 1)}`,
          `${fixed(p99, 1)}×${range("p99", 1)}`,
          `${fixed(cpu, 1)}×${range("serverCpuMsPerRequest", 1)}`,
          goals.cpu !== undefined ? `≤ ${goals.cpu}×: ${verdict(cpu <= goals.cpu)}` : "",
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
      "throughput goal",
      "p50 ratio",
      "p99 ratio",
      // Less sensitive to other jobs on the machine than req/s: A needs workerd and the client, B mostly workerd.
      "workerd CPU ms/req ratio",
      "CPU goal",
    ],
    rows.map((row) => row.cells),
  );
}

/**
 * The goal lines of P1 (row B against A and against the template row T) and
 * P2 (row P against A; row M with one plan alone), one per concurrency.
 */
export function goalLines(summaries, ratios) {
  const lines = [];
  for (const row of ratios.filter((r) => r.caseId === "B")) {
    const cairn = summaries.find((s) => s.caseId === "B" && s.concurrency === row.concurrency);
    const template = summaries.find((s) => s.caseId === "T" && s.concurrency === row.concurrency);
    const advantage = template ? cairn.rps / template.rps : Number.NaN;
    lines.push(
      `P1 MCP read @${row.concurrency} connections: workerd CPU per call ≤ ${GOALS.readMaxCpuRatio}× bare: ${verdict(row.cpuPass)} (${fixed(row.cpu, 1)}×); ` +
        `≥ ${GOALS.readMinThroughputRatio * 100} % of bare req/s: ${verdict(row.throughputPass)} (${fixed(row.throughput * 100, 1)} %); ` +
        (template
          ? `≥ ${GOALS.readMinTemplateRatio}× the template's req/s: ${verdict(advantage >= GOALS.readMinTemplateRatio)} (${fixed(advantage, 2)}×: ${int(cairn.rps)} vs ${int(template.rps)})`
          : "template row T not run"),
    );
  }
  for (const row of ratios.filter((r) => r.caseId === "P")) {
    lines.push(`P2 step call @${row.concurrency} connections: workerd CPU per call ≤ ${GOALS.stepMaxCpuRatio}× bare: ${verdict(row.cpuPass)} (${fixed(row.cpu, 1)}×)`);
  }
  const solo = summaries.find((s) => s.caseId === "M" && s.concurrency === 1);
  if (solo) lines.push(`P2 one plan alone (row M at 1): p50 per call ≤ ${GOALS.soloStepMaxP50Ms} ms: ${verdict(solo.p50 <= GOALS.soloStepMaxP50Ms)} (${fixed(solo.p50, 2)} ms)`);
  return lines;
}

/** Rows P and M: cycles, not calls, with each tool's latency and the workerd CPU per cycle. */
export function cycleTable(summaries) {
  return table(
    [
      "case",
      "conc (= plans at once)",
      "cycles/s (median)",
      "cycles/s min–max",
      "per plan cycles/s",
      "slowest–fastest plan",
      "calls/s",
      "get_next_step p50 / p99 ms",
      "submit_step_result p50 / p99 ms",
      "cycle p50 / p99 ms",
      "workerd CPU ms/cycle",
      "workerd CPU %",
      "cycles",
      "plans finished",
      "non-step answers",
      "plans created in measured phase",
    ],
    summaries.map((s) => [
      s.caseId,
      s.concurrency,
      int(s.cyclesPerS),
      `${int(s.cyclesPerSMin)}–${int(s.cyclesPerSMax)}`,
      fixed(s.perPlanCyclesPerS, 1),
      `${fixed(s.workerCyclesPerSMin, 1)}–${fixed(s.workerCyclesPerSMax, 1)}`,
      int(s.rps),
      `${fixed(s.nextP50, 2)} / ${fixed(s.nextP99, 2)}`,
      `${fixed(s.submitP50, 2)} / ${fixed(s.submitP99, 2)}`,
      `${fixed(s.cycleP50, 2)} / ${fixed(s.cycleP99, 2)}`,
      fixed(s.serverCpuMsPerCycle, 2),
      int(s.serverCpuPct),
      s.cycles,
      s.plansFinished,
      s.nonStep,
      s.inlineCreates,
    ]),
  );
}

/**
 * Row M: does the aggregate scale from few plans at once to many? Compares
 * the lowest and highest of M's concurrencies. On this harness every plan's
 * Durable Object runs in the one workerd process, on about one core, so the
 * most the aggregate can reach is min(linear scaling, one busy core at the
 * few-plans CPU cost per cycle); plans are independent if the CPU per cycle
 * does not grow with the number of plans and the aggregate gets close to
 * that ceiling.
 */
export function manyPlans(summaries) {
  const rows = summaries.filter((s) => s.caseId === "M").sort((a, b) => a.concurrency - b.concurrency);
  if (rows.length < 2) return null;
  const few = rows[0];
  const many = rows[rows.length - 1];
  const scaling = many.cyclesPerS / few.cyclesPerS;
  const cpuGrowth = many.serverCpuMsPerCycle / few.serverCpuMsPerCycle;
  const oneCoreCeiling = 1000 / few.serverCpuMsPerCycle;
  const attainable = Math.min((many.concurrency / few.concurrency) * few.cyclesPerS, oneCoreCeiling);
  const efficiency = many.cyclesPerS / attainable;
  const cpuPass = cpuGrowth <= GOALS.maxCpuPerCycleGrowth;
  const scalingPass = efficiency >= GOALS.minScalingEfficiency;
  const lines = [
    `### Many plans at once (row M): ${few.concurrency} vs ${many.concurrency} plans, one connection each`,
    "",
    table(
      ["plans at once", "aggregate cycles/s", "per plan cycles/s", "cycle p50 ms", "workerd CPU ms/cycle", "workerd CPU %"],
      rows.map((s) => [s.concurrency, int(s.cyclesPerS), fixed(s.perPlanCyclesPerS, 1), fixed(s.cycleP50, 2), fixed(s.serverCpuMsPerCycle, 2), int(s.serverCpuPct)]),
    ),
    "",
    `Aggregate scaling ${many.concurrency} plans / ${few.concurrency}: ${fixed(scaling, 2)}× ` +
      `(per plan ${fixed(few.perPlanCyclesPerS, 1)} → ${fixed(many.perPlanCyclesPerS, 1)} cycles/s). ` +
      `One workerd core at the ${few.concurrency}-plan cost (${fixed(few.serverCpuMsPerCycle, 2)} ms/cycle) allows ${int(oneCoreCeiling)} cycles/s, ` +
      `so the attainable aggregate is ${int(attainable)} cycles/s; reached ${fixed(efficiency * 100, 0)} %.`,
    `Plans independent — workerd CPU per cycle ${many.concurrency} vs ${few.concurrency} plans ≤ ${GOALS.maxCpuPerCycleGrowth}×: ${verdict(cpuPass)} (${fixed(cpuGrowth, 2)}×); ` +
      `aggregate ≥ ${GOALS.minScalingEfficiency * 100} % of attainable: ${verdict(scalingPass)} (${fixed(efficiency * 100, 0)} %)`,
  ];
  const busy = [few, many].filter((s) => s.otherCpuPct > 30);
  if (busy.length) {
    lines.push(
      `Other jobs used > 30 % of a core during M@${busy.map((s) => s.concurrency).join(", M@")}: the aggregate verdict is unreliable ` +
        "(workerd got less than a core); the CPU-per-cycle verdict is the robust one.",
    );
  }
  return {
    text: lines.join("\n"),
    figures: { few: few.concurrency, many: many.concurrency, scaling, cpuGrowth, oneCoreCeiling, attainable, efficiency, cpuPass, scalingPass },
  };
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
