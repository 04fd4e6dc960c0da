import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { CairnError } from "../../src/domain/errors";
import type { Env } from "../../src/env";
import { importOrg } from "../../src/platform/org-data/import";
import { homeDatabase } from "../../src/platform/org-homes";
import { createPlan, ok, steps } from "../support/plans";
import { ADMIN_SCOPES, api, emptyOrg, exportText, importInto, joinLines, type Line, objectsOf, parseLines } from "../support/org-files";
import { waitFor } from "../support/webhooks";
import { fetchWorkerOver, ORIGIN, seedApiKey, seedTenant } from "../support/worker";

/**
 * An export carries each source's verdict and the org's page snapshots; an import restores them under its trust
 * rules: a snapshot is bounded, its SHA-256 recomputed, stored under the importing org only, and a verdict is
 * judged again on the snapshot it names. Sources are checked for real first (the loopback fixture pages of
 * test/support/source-pages.global.ts), so the verdicts in the file are Cairn's own.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";



interface SourceRow {
  url: string;
  quote: string | null;
  verification_status: string | null;
  verification_reason: string | null;
  verification_score: number | null;
  verification_passage: string | null;
  verification_basis: string | null;
  verification_title_mismatch: number | null;
  verification_snapshot: string | null;
  verification_checked_at: number | null;
  verification_edits: string | null;
  verification_requested_at: number | null;
}
async function sourcesOf(orgId: string): Promise<SourceRow[]> {
  const home = await homeDatabase(env as unknown as Env, orgId);
  const { results } = await home
    .prepare(
      "SELECT url, quote, verification_status, verification_reason, verification_score, verification_passage, verification_basis, verification_title_mismatch, verification_snapshot, verification_checked_at, verification_edits, verification_requested_at FROM ledger_evidence WHERE org_id = ? ORDER BY n",
    )
    .bind(orgId)
    .all<SourceRow>();
  return results;
}

/**
 * An org whose plan cites four sources, checked for real: one verified, one partial, one not found (the quote
 * stands only in a hidden element), one unreachable (404). `tag` keeps this org's fixture URLs its own.
 */
async function checkedOrg() {
  const tenant = await seedTenant();
  const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES])).key;
  const tag = crypto.randomUUID();
  const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  const source = (path: string, quote: string) => ({ url: `${origin}${path}?t=${tag}`, title: "Solid-state batteries reach 500 Wh/kg", facts: `What ${path} says`, subtopic: "Density", quote });
  await ok(tenant.apiKey, "record_evidence", {
    planId,
    evidence: [
      source("/article.html", QUOTE),
      source("/plain.txt", "the survey covered 1,205 households in 2025"),
      source("/counted.html", "Hidden text claims the cells reached eight thousand Wh/kg today"),
      source("/gone", "anything at all"),
    ],
  });
  const rows = await waitFor("the source checks", async () => {
    const all = await sourcesOf(tenant.orgId);
    return all.every((row) => row.verification_status !== null && row.verification_status !== "pending") ? all : null;
  });
  expect(rows.map((row) => row.verification_status)).toEqual(["verified", "partial", "not_found", "unreachable"]);
  return { orgId: tenant.orgId, adminKey, tag };
}

const hits = async (tag: string) => {
  const all = ((await (await fetch(`${origin}/hits`)).json()) as { hits: Record<string, number> }).hits;
  return Object.fromEntries(Object.entries(all).filter(([path]) => path.includes(tag)));
};
const verdictOf = (row: SourceRow) => {
  const { url: _url, verification_requested_at: _requested, ...verdict } = row;
  return verdict;
};

describe("export and import of source verdicts and snapshots", () => {
  it("carries a verdict's brackets (edits) and judges them again on import", async () => {
    const tenant = await seedTenant();
    const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES])).key;
    const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    const url = `${origin}/article.html?t=${crypto.randomUUID()}`;
    const source = (quote: string, n: number) => ({ url: `${url}&n=${n}`, title: "Solid-state batteries reach 500 Wh/kg", facts: `Finding ${n}`, subtopic: "Density", quote });
    await ok(tenant.apiKey, "record_evidence", {
      planId,
      evidence: [source("[The team] reported that solid-state cells reached 500 Wh/kg", 1), source("the team reported that solid-state cells [never] reached 500 Wh/kg", 2)],
    });
    const rows = await waitFor("the source checks", async () => {
      const all = await sourcesOf(tenant.orgId);
      return all.every((row) => row.verification_status !== null && row.verification_status !== "pending") ? all : null;
    });
    expect(rows.map((row) => [row.verification_status, JSON.parse(row.verification_edits ?? "null")])).toEqual([
      ["verified", [{ bracket: "[The team]", replaces: "the team" }]],
      ["partial", [{ bracket: "[never]", replaces: "" }]],
    ]);
    const text = await exportText(adminKey);
    const exported = parseLines(text).filter((line) => line.table === "ledger_evidence");
    expect(exported.map((line) => line.row?.verification_edits)).toEqual(rows.map((row) => row.verification_edits));

    const b = await emptyOrg();
    // A file whose brackets were edited still imports, with the judge's brackets: they are judged again on the snapshot.
    const edited = text.replace('"replaces\\":\\"the team\\"', '"replaces\\":\\"made up\\"');
    expect(edited).not.toBe(text);
    const imported = await importInto(b.key, edited);
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect((await sourcesOf(b.orgId)).map(verdictOf)).toEqual(rows.map(verdictOf));
  });


  it("round-trips verified, partial, not_found and unreachable sources and their snapshots into a fresh org; nothing that arrived checked is checked again", async () => {
    const a = await checkedOrg();
    const text = await exportText(a.adminKey);
    const lines = parseLines(text);
    expect(lines[0]).toMatchObject({ type: "header", formatVersion: 3 });
    const snapshots = lines.filter((line) => line.type === "snapshot");
    // Two pages were read (the article and the plain text; the 404 gave no page): each snapshot once.
    expect(snapshots.map((s) => s.sha256).sort()).toEqual((await objectsOf(a.orgId)).filter((key) => key.includes("/snapshots/")).map((key) => key.replace(/^.*\/snapshots\/|\.json$/g, "")).sort());
    expect(snapshots).toHaveLength(2);
    // Snapshots come before the sources that name them.
    const firstSource = lines.findIndex((line) => line.table === "ledger_evidence");
    expect(lines.findLastIndex((line) => line.type === "snapshot")).toBeLessThan(firstSource);
    expect(lines.filter((line) => line.table === "ledger_evidence").every((line) => !("verification_requested_at" in (line.row ?? {})))).toBe(true);

    const hitsBefore = await hits(a.tag);
    const b = await emptyOrg();
    const imported = await importInto(b.key, text);
    expect(imported.status, await imported.clone().text()).toBe(200);
    const [before, after] = [await sourcesOf(a.orgId), await sourcesOf(b.orgId)];
    expect(after.map(verdictOf)).toEqual(before.map(verdictOf));
    // Nothing arrived to be checked: no source is pending or counted as a check request, no page is fetched again.
    expect(after.every((row) => row.verification_requested_at === null)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await sourcesOf(b.orgId)).map(verdictOf)).toEqual(before.map(verdictOf));
    expect(await hits(a.tag)).toEqual(hitsBefore);

    // The snapshots are under B's prefix, equal in text and hash to A's.
    const keysOf = async (orgId: string) => (await objectsOf(orgId)).filter((key) => key.includes("/snapshots/")).map((key) => key.replace(`orgs/${orgId}/`, ""));
    expect(await keysOf(b.orgId)).toEqual(await keysOf(a.orgId));
    for (const key of await keysOf(a.orgId)) {
      const [left, right] = await Promise.all([a.orgId, b.orgId].map(async (orgId) => (await env.SOURCE_SNAPSHOTS.get(`orgs/${orgId}/${key}`))?.json<Record<string, unknown>>()));
      expect(right).toEqual(left);
      const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(right?.text))))].map((x) => x.toString(16).padStart(2, "0")).join("");
      expect(`snapshots/${digest}.json`).toBe(key);
    }
    // And B's export carries them as A's did.
    expect(parseLines(await exportText(b.key)).filter((line) => line.type === "snapshot")).toEqual(snapshots);
  });

  it("refuses a forged verdict: a verified source whose snapshot does not hold its quote, naming the line; nothing is kept", async () => {
    const a = await checkedOrg();
    const lines = parseLines(await exportText(a.adminKey));
    const at = (status: string) => lines.findIndex((line) => line.table === "ledger_evidence" && line.row?.verification_status === status);
    const forge = (index: number, change: Record<string, unknown>) => joinLines(lines.map((line, i) => (i === index ? { ...line, row: { ...line.row, ...change } } : line)));
    const b = await emptyOrg();
    const cases: [string, number][] = [
      // A not_found source called verified.
      [forge(at("not_found"), { verification_status: "verified", verification_score: 1 }), at("not_found")],
      // A partial one called verified.
      [forge(at("partial"), { verification_status: "verified", verification_score: 1 }), at("partial")],
      // A verified source whose quote was changed to words the page does not hold.
      [forge(at("verified"), { quote: "solid-state cells reached 900 Wh/kg in the lab" }), at("verified")],
      // A verified source naming no snapshot, or one the file does not carry.
      [forge(at("verified"), { verification_snapshot: null }), at("verified")],
      [forge(at("verified"), { verification_snapshot: "0".repeat(64) }), at("verified")],
      // An unreachable source with a score and passage, and an unknown status.
      [forge(at("unreachable"), { verification_score: 1, verification_passage: "made up" }), at("unreachable")],
      [forge(at("unreachable"), { verification_status: "trusted" }), at("unreachable")],
    ];
    for (const [body, index] of cases) {
      const response = await importInto(b.key, body);
      const message = await response.text();
      expect(response.status, message).toBe(400);
      expect(message).toContain(`Line ${index + 1}`);
      expect(message).toContain("verification");
      expect(await objectsOf(b.orgId)).toEqual([]);
      expect(await sourcesOf(b.orgId)).toEqual([]);
    }
  });

  it("refuses a snapshot whose text does not hash to its key, and one larger than a fetch reads, naming the line", async () => {
    const a = await checkedOrg();
    const lines = parseLines(await exportText(a.adminKey));
    const at = lines.findIndex((line) => line.type === "snapshot");
    const snapshot = lines[at] as Line & { text: string };
    const withSnapshot = (change: Record<string, unknown>) => joinLines(lines.map((line, i) => (i === at ? { ...line, ...change } : line)));
    const sha = async (text: string) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))].map((x) => x.toString(16).padStart(2, "0")).join("");
    const oversized = `${snapshot.text} ${"x".repeat(2 * 1024 * 1024)}`;
    const b = await emptyOrg();
    const cases: [string, RegExp][] = [
      [withSnapshot({ text: `${snapshot.text} And the cells reached 900 Wh/kg.` }), /SHA-256/],
      [withSnapshot({ text: oversized, sha256: await sha(oversized) }), /2097152 bytes/],
      [withSnapshot({ sha256: "../../other/snapshots/x" }), /sha256/],
      [withSnapshot({ status: "200; DROP" }), /status/],
    ];
    for (const [body, reason] of cases) {
      const response = await importInto(b.key, body);
      const message = await response.text();
      expect(response.status, message).toBe(400);
      expect(message).toContain(`Line ${at + 1}`);
      expect(message).toMatch(reason);
      expect(await objectsOf(b.orgId)).toEqual([]);
    }
  });

  it("counts a file's snapshots against the org's daily import bytes: past the budget none is stored", async () => {
    const a = await checkedOrg();
    const text = await exportText(a.adminKey);
    const snapshotBytes = parseLines(text)
      .filter((line) => line.type === "snapshot")
      .reduce((n, line) => n + new TextEncoder().encode(JSON.stringify(line)).byteLength, 0);
    const b = await emptyOrg();
    // A budget the file's other lines fit in, and its snapshots do not.
    const budget = new TextEncoder().encode(text).byteLength - snapshotBytes + 10;
    const small = { ...(env as object), ORG_IMPORT_DAILY_BYTES: String(budget) };
    const refused = await fetchWorkerOver(small)(
      new Request(`${ORIGIN}/api/v1/org/import`, { method: "POST", body: text, headers: { authorization: `Bearer ${b.key}`, "content-type": "application/x-ndjson" } }),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await objectsOf(b.orgId)).toEqual([]);
    expect(await sourcesOf(b.orgId)).toEqual([]);
  });

  it("stores a file's snapshots under the importing org only: no key in the file reaches another org's objects", async () => {
    const victim = await checkedOrg();
    const victimObjects = await objectsOf(victim.orgId);
    const victimBodies = await Promise.all(victimObjects.map(async (key) => (await env.SOURCE_SNAPSHOTS.get(key))?.text()));
    const lines = parseLines(await exportText(victim.adminKey));
    const at = lines.findIndex((line) => line.type === "snapshot");
    const sha = String(lines[at]?.sha256);
    const attacker = await emptyOrg();
    // A snapshot line naming the victim's object as its key, or pointing its URL entry there: refused, not followed.
    for (const extra of [{ key: `orgs/${victim.orgId}/snapshots/${sha}.json` }, { orgId: victim.orgId }]) {
      const response = await importInto(attacker.key, joinLines(lines.map((line, i) => (i === at ? { ...line, ...extra } : line))));
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(`Line ${at + 1}`);
    }
    // A source whose verdict names the victim's snapshot without the file carrying it: refused (nothing read from the victim).
    const withoutSnapshots = lines.filter((line) => line.type !== "snapshot");
    const verified = withoutSnapshots.findIndex((line) => line.row?.verification_status === "verified");
    const borrowing = await importInto(attacker.key, joinLines(withoutSnapshots));
    expect(borrowing.status).toBe(400);
    expect(await borrowing.text()).toContain(`Line ${verified + 1}`);

    // The victim's own file imported by the attacker: the same hashes, kept under the attacker's prefix.
    expect((await importInto(attacker.key, joinLines(lines))).status).toBe(200);
    expect((await objectsOf(attacker.orgId)).every((key) => key.startsWith(`orgs/${attacker.orgId}/snapshots/`))).toBe(true);
    // Erasing the attacker's org leaves the victim's objects as they were.
    const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(attacker.orgId).first("slug"));
    expect((await api(attacker.key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
    expect(await objectsOf(attacker.orgId)).toEqual([]);
    expect(await objectsOf(victim.orgId)).toEqual(victimObjects);
    expect(await Promise.all(victimObjects.map(async (key) => (await env.SOURCE_SNAPSHOTS.get(key))?.text()))).toEqual(victimBodies);
  });

  it("takes back the snapshots it wrote when it fails, or when it died half-way and the org is erased", async () => {
    const a = await checkedOrg();
    const lines = parseLines(await exportText(a.adminKey));
    const lastSnapshot = lines.findLastIndex((line) => line.type === "snapshot");
    const b = await emptyOrg();
    // Fails on a line after the snapshots were written.
    const bad = joinLines([...lines.slice(0, lastSnapshot + 1), { type: "row", table: "artifacts", row: { id: "art_bad" } }, ...lines.slice(lastSnapshot + 1)]);
    const failed = await importInto(b.key, bad);
    expect(failed.status).toBe(400);
    expect(await objectsOf(b.orgId)).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM org_import_journal WHERE org_id = ?").bind(b.orgId).first("n")).toBe(0);

    // An object already under the org before the import (the same page kept from earlier research) is not the import's to take back.
    const kept = lines[lastSnapshot] as Line;
    const keptKey = `orgs/${b.orgId}/snapshots/${String(kept.sha256)}.json`;
    const { type: _type, ...keptBody } = kept;
    await env.SOURCE_SNAPSHOTS.put(keptKey, JSON.stringify(keptBody));
    expect((await importInto(b.key, bad)).status).toBe(400);
    expect(await objectsOf(b.orgId)).toEqual([keptKey]);

    // A Worker that died after writing the snapshots: the org's erasure takes them back with everything else.
    let reached: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let resume: (more: boolean) => void = () => undefined;
    const more = new Promise<boolean>((resolve) => {
      resume = resolve;
    });
    const c = await emptyOrg();
    const outcome = importOrg(
      env as unknown as Env,
      c.orgId,
      (async function* () {
        yield* lines.slice(0, lastSnapshot + 1).map((line) => JSON.stringify(line));
        reached();
        if (await more) yield* lines.slice(lastSnapshot + 1).map((line) => JSON.stringify(line));
      })(),
    ).then(
      () => null,
      (error: unknown) => error as CairnError,
    );
    await stalled;
    await waitFor("the snapshots written", async () => (await objectsOf(c.orgId)).length === 2);
    await env.DB.prepare("UPDATE orgs SET import_heartbeat_at = ? WHERE id = ?").bind(Date.now() - 61_000, c.orgId).run();
    const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(c.orgId).first("slug"));
    expect((await api(c.key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
    expect(await objectsOf(c.orgId)).toEqual([]);
    resume(false);
    expect(await outcome).not.toBeNull();
    expect(await objectsOf(c.orgId)).toEqual([]);
    expect((await objectsOf(a.orgId)).length).toBeGreaterThan(0);

    // The same dead import, then the org's next import (of a file without snapshots or sources, so no check writes one): it first takes back the dead one's.
    const d = await emptyOrg();
    let reachedAgain: () => void = () => undefined;
    const stalledAgain = new Promise<void>((resolve) => {
      reachedAgain = resolve;
    });
    const dead = importOrg(
      env as unknown as Env,
      d.orgId,
      (async function* () {
        yield* lines.slice(0, lastSnapshot + 1).map((line) => JSON.stringify(line));
        reachedAgain();
        await new Promise(() => undefined);
      })(),
    );
    void dead.catch(() => undefined);
    await stalledAgain;
    await waitFor("the snapshots written", async () => (await objectsOf(d.orgId)).length === 2);
    await env.DB.prepare("UPDATE orgs SET import_heartbeat_at = ? WHERE id = ?").bind(Date.now() - 61_000, d.orgId).run();
    const withoutSnapshots = lines.filter((line) => line.type !== "snapshot" && line.table !== "ledger_evidence");
    expect((await importInto(d.key, joinLines(withoutSnapshots))).status).toBe(200);
    expect(await objectsOf(d.orgId)).toEqual([]);
  });

  it("still imports a version 2 export (no verdicts, no snapshots): its sources are queued for checking; a version 2 file carrying a verdict is refused", async () => {
    const a = await checkedOrg();
    const lines = parseLines(await exportText(a.adminKey));
    const strip = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([column]) => !column.startsWith("verification_")));
    const versionTwo = lines
      .filter((line) => line.type !== "snapshot")
      .map((line) => (line.type === "header" ? { ...line, formatVersion: 2 } : line.table === "ledger_evidence" ? { ...line, row: strip(line.row ?? {}) } : line));
    const withVerdict = joinLines(lines.filter((line) => line.type !== "snapshot").map((line) => (line.type === "header" ? { ...line, formatVersion: 2 } : line)));
    const b = await emptyOrg();
    const refused = await importInto(b.key, withVerdict);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("verification_");
    expect((await importInto(b.key, joinLines(versionTwo))).status).toBe(200);
    const rows = await waitFor("the imported sources checked", async () => {
      const all = await sourcesOf(b.orgId);
      return all.every((row) => row.verification_status !== null && row.verification_status !== "pending") ? all : null;
    });
    expect(rows.map((row) => row.verification_status)).toEqual(["verified", "partial", "not_found", "unreachable"]);
    expect(rows.every((row) => row.verification_requested_at !== null)).toBe(true);
  });

  it("exports a source whose snapshot is no longer kept without its verdict, so the file still imports and the source is checked afresh", async () => {
    const a = await checkedOrg();
    const partial = (await sourcesOf(a.orgId))[1];
    expect(partial?.verification_status).toBe("partial");
    await env.SOURCE_SNAPSHOTS.delete(`orgs/${a.orgId}/snapshots/${partial?.verification_snapshot}.json`);
    const lines = parseLines(await exportText(a.adminKey));
    expect(lines.filter((line) => line.type === "snapshot")).toHaveLength(1);
    const rows = lines.filter((line) => line.table === "ledger_evidence").map((line) => line.row?.verification_status ?? null);
    expect(rows).toEqual(["verified", null, "not_found", "unreachable"]);
    const b = await emptyOrg();
    expect((await importInto(b.key, joinLines(lines))).status).toBe(200);
    const checked = await waitFor("the source without a verdict checked", async () => {
      const all = await sourcesOf(b.orgId);
      return all[1]?.verification_status === "partial" ? all : null;
    });
    expect(checked.map((row) => row.verification_requested_at === null)).toEqual([true, false, true, true]);
  });

  it("queues a source the file carries as pending for checking again, as one without a verdict; the others arrive as they were", async () => {
    const a = await checkedOrg();
    const lines = parseLines(await exportText(a.adminKey));
    const cleared = Object.fromEntries(["reason", "score", "passage", "basis", "title_mismatch", "snapshot", "checked_at"].map((column) => [`verification_${column}`, null]));
    const pending = lines.map((line) => (line.row?.verification_status === "unreachable" ? { ...line, row: { ...line.row, ...cleared, verification_status: "pending" } } : line));
    const b = await emptyOrg();
    expect((await importInto(b.key, joinLines(pending))).status).toBe(200);
    const arrived = await sourcesOf(b.orgId);
    expect(arrived.map((row) => row.verification_requested_at === null)).toEqual([true, true, true, false]);
    const rows = await waitFor("the pending source checked", async () => {
      const all = await sourcesOf(b.orgId);
      return all[3]?.verification_status === "unreachable" ? all : null;
    });
    expect(rows.map((row) => row.verification_status)).toEqual(["verified", "partial", "not_found", "unreachable"]);
  });
});
