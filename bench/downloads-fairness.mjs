/**
 * The two-org part of `npm run bench:downloads` (bench/README.md, "Downloads"): Cairn's deployable bundle in one local
 * workerd (Miniflare, as bench/harness.mjs starts it), two orgs, each with deliverables of the 196 KB lists-code-links
 * shape. Org A reads its deliverable (`GET /api/v1/outputs/{id}`, one at a time) alone, then while org B downloads
 * DOCX files 20 at a time, and the goal compares A's p95: ≤ 2× alone. B runs twice: the same file 20 at a time (kept
 * after its first render), and 20 files never rendered (each a render). Past the org's bound B is answered 429 and
 * asks again after Retry-After: a client asking faster meets the per-credential request limit (one credential
 * flooding, SECURITY.md), which this harness lifts. Wall-clock times on a shared machine: noisy (bench/README.md).
 */
import path from "node:path";
import { applyMigrations, buildBareBundle, buildCairnBundle, readProjectConfig, seedTenant, startRuntime } from "./harness.mjs";

export const FAIRNESS_GOALS = {
  /** Org A's read p95 while org B downloads 20 DOCX at a time, as a multiple of its p95 alone. */
  readP95Ratio: 2,
  /** Org B's downloads at a time. */
  neighbourConcurrency: 20,
};

/** About 196 KB (196,000 characters) of Markdown made of lists, inline code, links and code blocks: the shape a 3.5 s DOCX was measured on. */
export function listsCodeLinks(targetChars = 196_000) {
  const sections = [];
  let length = 0;
  for (let s = 1; length < targetChars; s++) {
    const items = Array.from(
      { length: 40 },
      (_, i) => `- Step ${s}.${i + 1}: see [the guide ${s}-${i}](https://docs${s % 7}.example.org/guide/${s}/${i}) and run \`tool --section ${s} --item ${i}\` [E${(i % 8) + 1}]`,
    );
    const nested = Array.from({ length: 6 }, (_, i) => `  - detail ${i}: \`flag-${s}-${i}\` links [ref ${i}](https://ref.example.org/${s}/${i})`);
    const code = Array.from({ length: 8 }, (_, i) => `  run --step ${s}.${i} --out /tmp/out-${s}-${i}.json`);
    const section = `## Section ${s}\n\n${items.slice(0, 20).join("\n")}\n${nested.join("\n")}\n${items.slice(20).join("\n")}\n\n\`\`\`sh\n${code.join("\n")}\n\`\`\`\n`;
    length += section.length + 2;
    sections.push(section);
  }
  return `# Operations runbook\n\n${sections.join("\n")}`.slice(0, targetChars);
}

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

async function storeOutput(base, apiKey, title, content) {
  const response = await fetch(`${base}/api/v1/outputs`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ title, mediaType: "markdown", content }),
  });
  if (response.status !== 201) throw new Error(`storing a deliverable: ${response.status} ${await response.text()}`);
  return (await response.json()).outputId;
}

/** A's reads, one at a time, `samples` of them: their wall-clock ms. */
async function readTimes(base, apiKey, outputId, samples) {
  const times = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const response = await fetch(`${base}/api/v1/outputs/${outputId}`, { headers: { authorization: `Bearer ${apiKey}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`org A's read: ${response.status}`);
    times.push(performance.now() - start);
  }
  return times;
}

/**
 * B's requests, `concurrency` at a time, until `stop()`; each worker takes the next of `ids` in turn. B downloads
 * the DOCX of each id, or with `read`, reads the deliverable as A does (the control: what any 20 requests at a
 * time of a neighbour cost A on one instance's thread, nothing rendered).
 */
function neighbour(base, apiKey, ids, concurrency, { read = false } = {}) {
  let running = true;
  let end = () => {};
  const ended = new Promise((resolve) => {
    end = resolve;
  });
  const counts = { ok: 0, refused: 0, other: 0 };
  let next = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    while (running) {
      const id = ids[next++ % ids.length];
      const response = await fetch(`${base}/api/v1/outputs/${id}${read ? "" : "/download?format=docx"}`, { headers: { authorization: `Bearer ${apiKey}` } });
      await response.arrayBuffer();
      if (response.status === 200) counts.ok++;
      else if (response.status === 429) {
        counts.refused++;
        // As a client does: again after Retry-After (a credential asking faster meets the per-credential request
        // limit, which this harness lifts), or at once when the run ends.
        await Promise.race([new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after") ?? 1) * 1000)), ended]);
      } else counts.other++;
    }
  });
  return {
    counts,
    async stop() {
      running = false;
      end();
      await Promise.all(workers);
    },
  };
}

/** Starts the runtime, runs both phases, and returns the rows and goals. `log` hears progress. */
export async function runTwoOrgs({ tmp, samples, log }) {
  const config = await readProjectConfig();
  log("building the Worker bundle (wrangler deploy --dry-run)…");
  const cairnBundle = await buildCairnBundle(path.join(tmp, "bundle"));
  const bareCode = await buildBareBundle();
  const { mf, publicUrl } = await startRuntime({ cairnBundle, bareCode, config, persistDir: path.join(tmp, "persist") });
  try {
    const db = await mf.getD1Database("DB", "cairn");
    await applyMigrations(db, config.migrationsDir);
    const a = await seedTenant(db, { slug: "bench-a", email: "bench-a@example.com" });
    const b = await seedTenant(db, { slug: "bench-b", email: "bench-b@example.com" });
    const content = listsCodeLinks();
    const readId = await storeOutput(publicUrl, a.apiKey, "Org A runbook", content);
    const sameId = await storeOutput(publicUrl, b.apiKey, "Org B runbook", content);
    const fresh = [];
    for (let i = 0; i < FAIRNESS_GOALS.neighbourConcurrency; i++) fresh.push(await storeOutput(publicUrl, b.apiKey, `Org B runbook ${i}`, `${content.slice(0, 195_000)}\n\nCopy ${i}.`));
    log(`two orgs, deliverables of ${content.length.toLocaleString("en")} characters stored; org A reads alone…`);

    // The first DOCX of the same deliverable, timed: what a render of this shape costs here.
    await readTimes(publicUrl, a.apiKey, readId, 5); // warm
    const alone = await readTimes(publicUrl, a.apiKey, readId, samples);
    const renderStart = performance.now();
    const first = await fetch(`${publicUrl}/api/v1/outputs/${sameId}/download?format=docx`, { headers: { authorization: `Bearer ${b.apiKey}` } });
    const docxBytes = (await first.arrayBuffer()).byteLength;
    const firstMs = performance.now() - renderStart;
    const keptStart = performance.now();
    await (await fetch(`${publicUrl}/api/v1/outputs/${sameId}/download?format=docx`, { headers: { authorization: `Bearer ${b.apiKey}` } })).arrayBuffer();
    const keptMs = performance.now() - keptStart;

    log("org B reads its deliverable 20 at a time (the control: nothing rendered)…");
    const reads = neighbour(publicUrl, b.apiKey, [sameId], FAIRNESS_GOALS.neighbourConcurrency, { read: true });
    const besideReads = await readTimes(publicUrl, a.apiKey, readId, samples);
    await reads.stop();

    log("org B downloads the same DOCX 20 at a time…");
    const same = neighbour(publicUrl, b.apiKey, [sameId], FAIRNESS_GOALS.neighbourConcurrency);
    const besideKept = await readTimes(publicUrl, a.apiKey, readId, samples);
    await same.stop();

    log("org B downloads 20 DOCX never rendered, 20 at a time…");
    const renders = neighbour(publicUrl, b.apiKey, fresh, FAIRNESS_GOALS.neighbourConcurrency);
    const besideRenders = await readTimes(publicUrl, a.apiKey, readId, samples);
    await renders.stop();

    const row = (name, times, counts, control = false) => ({ name, p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times), counts, control });
    return {
      content: content.length,
      render: { firstMs, keptMs, docxBytes, status: first.status },
      rows: [
        row("org A alone", alone, null),
        row("beside B: reading its deliverable, 20 at a time (control)", besideReads, reads.counts, true),
        row("beside B: the same DOCX, 20 at a time", besideKept, same.counts),
        row("beside B: 20 DOCX never rendered, 20 at a time", besideRenders, renders.counts),
      ],
    };
  } finally {
    await mf.dispose();
  }
}
