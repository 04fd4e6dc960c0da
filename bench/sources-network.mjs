/**
 * The network and citation part of `npm run bench:sources`: what a check does when the network fails for a while, and
 * how a deliverable's link citations resolve when the ledger holds a page more than once.
 *
 * - Network: a loopback server whose pages drop their first connection (the socket closed with no answer), answer
 *   their first request 503 with `Retry-After: 1`, always answer 502, or 404. The Worker's fetcher
 *   (src/platform/sources/fetch-page.ts, bundled as the Worker bundles it, run on Node's fetch) reads each; goals: the
 *   dropped and busy pages are read (retried on a fresh connection), the 502 page ends after 3 attempts, the 404 at
 *   once (dead).
 * - Link citations: the citation check (src/domain/research/ledger.ts) on a ledger that quotes one page twice (one
 *   quote grounded, one not) and another page with and without a fragment; goals: `[title](url)` of the repeated page
 *   passes strict without naming the ungrounded quote; a link with the fragment cites only the entry holding it.
 */
import { createServer } from "node:http";
import { loadBundled } from "./node-bundle.mjs";

const loadModules = () =>
  loadBundled([
        'export { fetchPage } from "./src/platform/sources/fetch-page";',
        'export { checkCitations, summarizeSubtopics } from "./src/domain/research/ledger";',
  ]);

const ARTICLE = "<!doctype html><html><head><title>Cells</title></head><body><p>Solid-state cells reached 500 Wh/kg in the lab.</p></body></html>";

/** Pages the network fails for a while; every request counted by path. */
async function flakyServer() {
  const hits = new Map();
  const server = createServer((request, response) => {
    const url = request.url ?? "/";
    const n = (hits.get(url) ?? 0) + 1;
    hits.set(url, n);
    if (url.startsWith("/drops-first") && n === 1) return request.socket.destroy();
    if (url.startsWith("/busy-first") && n === 1) return response.writeHead(503, { "retry-after": "1" }).end("busy");
    if (url.startsWith("/bad-gateway")) return response.writeHead(502).end("bad gateway");
    if (url.startsWith("/gone")) return response.writeHead(404).end("not here");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, hits, close: () => new Promise((resolve) => server.close(resolve)) };
}

const line = (goal, pass, detail) => ({ text: `Goal (network and citations): ${goal} — ${pass ? "PASS" : "MISS"} (${detail})`, pass });

export async function runNetworkAndCitations({ log }) {
  const { fetchPage, checkCitations, summarizeSubtopics } = await loadModules();
  const goals = [];

  const server = await flakyServer();
  try {
    const rules = { outbound: { allowLoopback: true }, allowedHosts: null, blockedDomains: [] };
    const read = async (pathName) => {
      const started = performance.now();
      const page = await fetchPage(`${server.origin}${pathName}`, rules, "bench");
      return { page, ms: performance.now() - started, hits: server.hits.get(pathName) ?? 0 };
    };
    const dropped = await read("/drops-first/a");
    goals.push(line("a page whose first connection drops is read", dropped.page.ok && dropped.hits === 2, `${dropped.page.ok ? "read" : dropped.page.reason}, ${dropped.hits} requests, ${Math.round(dropped.ms)} ms`));
    const busy = await read("/busy-first/a");
    goals.push(line("a page answering 503 with Retry-After: 1 first is read", busy.page.ok && busy.hits === 2, `${busy.page.ok ? "read" : busy.page.reason}, ${busy.hits} requests, ${Math.round(busy.ms)} ms`));
    const gateway = await read("/bad-gateway/a");
    goals.push(line("a page always answering 502 ends after 3 attempts", !gateway.page.ok && gateway.hits === 3, `${gateway.page.ok ? "read" : gateway.page.reason}, ${gateway.hits} requests`));
    const gone = await read("/gone/a");
    goals.push(line("a 404 is dead at once", !gone.page.ok && gone.page.reason.startsWith("dead:") && gone.hits === 1, `${gone.page.ok ? "read" : gone.page.reason}, ${gone.hits} requests`));
  } finally {
    await server.close();
  }

  // Link citations: one page quoted twice (E1 grounded, E3 on no grounded claim); another with a fragment (E4) and without (E2).
  const verdict = { kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED", reasoning: null, confidence: null, createdAt: 0 };
  const claim = (ref, text, evidenceRefs) => ({
    claimId: `clm_${ref}`, ref, planId: "plan_bench", subtopic: "Cells", text, evidenceRefs, workerIds: ["w"], confidence: 0.8, highStakes: false, createdAt: 0,
    verdicts: [verdict], reusedFrom: null, sourceChecks: evidenceRefs.map((r) => ({ ref: r, status: "verified", reason: null })),
  });
  const page = "https://lab.example/cells";
  const other = "https://stats.example/costs";
  const evidence = [
    { ref: "E1", url: page },
    { ref: "E2", url: other },
    { ref: "E3", url: page },
    { ref: "E4", url: `${other}#table-2` },
  ];
  const claims = [claim("C1", "Cells reached 500 Wh/kg", ["E1"]), claim("C2", "Costs fell", ["E2"])];
  const ledger = { evidence, claims, subtopics: summarizeSubtopics(["Cells"], [], claims) };
  const repeated = checkCitations("strict", { content: `Cells reached 500 Wh/kg ([the lab](${page})).\n\nCosts fell ([statistics](${other})).`, citationRefs: [] }, ledger);
  goals.push(line("a link to a page quoted twice rests on its grounded quote", repeated.passed && !repeated.citedRefs.includes("E3"), `passed ${repeated.passed}, cited ${repeated.citedRefs.join(", ")}`));
  const fragment = checkCitations("strict", { content: `Cells reached 500 Wh/kg [E1].\n\nCosts fell ([table 2](${other}#table-2)).`, citationRefs: [] }, ledger);
  const named = fragment.problems.find((p) => p.startsWith("Cites evidence no grounded claim rests on")) ?? "";
  goals.push(line("a link with a fragment cites only the entry holding it", !fragment.passed && /: E4\.$/.test(named), named ? `named ${named.slice(named.lastIndexOf(":") + 2).replace(/\.$/, "")}` : "nothing named"));

  log(`network and citations: ${goals.filter((g) => g.pass).length} of ${goals.length} goals`);
  return { lines: ["", "## Network failures and link citations", "", ...goals.map((g) => g.text)], pass: goals.every((g) => g.pass) };
}
