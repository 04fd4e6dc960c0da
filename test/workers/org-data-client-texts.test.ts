import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../../src/env";
import { importOrg } from "../../src/platform/org-data/import";
import { homeDatabase } from "../../src/platform/org-homes";
import { createPlan, ok, steps } from "../support/plans";
import { ADMIN_SCOPES, api, emptyOrg, exportText, importInto, joinLines, type Line, objectsOf, parseLines } from "../support/org-files";
import { waitFor } from "../support/webhooks";
import { fetchWorkerOver, ORIGIN, seedApiKey, seedTenant } from "../support/worker";

/**
 * An export carries the text assistants sent for pages Cairn could not read (record_evidence's sourceText) and
 * which source has which; an import stores those texts under the importing org (hash recomputed, bounded,
 * journaled) and judges each verdict reached on one (basis client_text) again on the text the file carries.
 * The verdicts are reached for real first, on the loopback fixture pages (a bot wall answers 403).
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const PAYWALLED_TEXT = `Subscribers only.\n\nIn March, the team reported that ${QUOTE}, a record for the chemistry.`;
const LOGIN_TEXT = "Subscribers only. Nothing about cells here, only a login form.";

const sha = async (text: string) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))].map((x) => x.toString(16).padStart(2, "0")).join("");

const clientTextKeys = async (orgId: string) => (await objectsOf(orgId)).filter((key) => key.includes("/client-texts/")).map((key) => key.replace(`orgs/${orgId}/`, ""));

interface SourceRow {
  url: string;
  client_text_sha256: string | null;
  verification_status: string | null;
  verification_reason: string | null;
  verification_score: number | null;
  verification_passage: string | null;
  verification_basis: string | null;
  verification_title_mismatch: number | null;
  verification_snapshot: string | null;
  verification_checked_at: number | null;
  verification_requested_at: number | null;
}
async function sourcesOf(orgId: string): Promise<SourceRow[]> {
  const home = await homeDatabase(env as unknown as Env, orgId);
  const { results } = await home
    .prepare(
      "SELECT url, client_text_sha256, verification_status, verification_reason, verification_score, verification_passage, verification_basis, verification_title_mismatch, verification_snapshot, verification_checked_at, verification_requested_at FROM ledger_evidence WHERE org_id = ? ORDER BY n",
    )
    .bind(orgId)
    .all<SourceRow>();
  return results;
}
const verdictOf = (row: SourceRow) => {
  const { url: _url, verification_requested_at: _requested, ...verdict } = row;
  return verdict;
};

/**
 * An org whose plan cites three sources: two behind a bot wall with the text the assistant read (one holding the
 * quote, one not) and one Cairn reads itself, for which the assistant sent a text too (Cairn's reading decides).
 */
async function orgWithClientTexts() {
  const tenant = await seedTenant();
  const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES])).key;
  const tag = crypto.randomUUID();
  const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
  const source = (path: string, sourceText: string) => ({
    url: `${origin}${path}${path.includes("?") ? "&" : "?"}t=${tag}`,
    title: "Solid-state batteries reach 500 Wh/kg",
    facts: `What ${path} says`,
    subtopic: "Density",
    quote: QUOTE,
    sourceText,
  });
  await ok(tenant.apiKey, "record_evidence", {
    planId,
    evidence: [source("/forbidden?with-quote", PAYWALLED_TEXT), source("/forbidden?without-quote", LOGIN_TEXT), source("/article.html", `${PAYWALLED_TEXT} (copied)`)],
  });
  const rows = await waitFor("the source checks", async () => {
    const all = await sourcesOf(tenant.orgId);
    return all.every((row) => row.verification_status !== null && row.verification_status !== "pending") ? all : null;
  });
  expect(rows.map((row) => [row.verification_status, row.verification_basis])).toEqual([
    ["verified", "client_text"],
    ["not_found", "client_text"],
    ["verified", "fetched"],
  ]);
  return { orgId: tenant.orgId, adminKey, tag };
}

const hits = async (tag: string) => {
  const all = ((await (await fetch(`${origin}/hits`)).json()) as { hits: Record<string, number> }).hits;
  return Object.fromEntries(Object.entries(all).filter(([path]) => path.includes(tag)));
};

describe("export and import of the texts assistants sent for pages Cairn could not read", () => {
  it("round-trips a source verified on the assistant's text into a fresh org: the verdict (basis client_text) and the text, byte for byte", async () => {
    const a = await orgWithClientTexts();
    const text = await exportText(a.adminKey);
    const lines = parseLines(text);
    const carried = lines.filter((line) => line.type === "client_text");
    expect(carried.map((line) => line.text).sort()).toEqual([PAYWALLED_TEXT, LOGIN_TEXT, `${PAYWALLED_TEXT} (copied)`].sort());
    for (const line of carried) expect(line.sha256).toBe(await sha(String(line.text)));
    // The texts come before the sources that name them, and each source names its own.
    const firstSource = lines.findIndex((line) => line.table === "ledger_evidence");
    expect(lines.findLastIndex((line) => line.type === "client_text")).toBeLessThan(firstSource);
    const named = lines.filter((line) => line.table === "ledger_evidence").map((line) => line.row?.client_text_sha256);
    expect(named).toEqual((await sourcesOf(a.orgId)).map((row) => row.client_text_sha256));

    const hitsBefore = await hits(a.tag);
    const b = await emptyOrg();
    const imported = await importInto(b.key, text);
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(((await imported.json()) as { imported: { clientTexts: number } }).imported.clientTexts).toBe(3);
    const [before, after] = [await sourcesOf(a.orgId), await sourcesOf(b.orgId)];
    expect(after.map(verdictOf)).toEqual(before.map(verdictOf));
    expect(after.every((row) => row.verification_requested_at === null)).toBe(true);
    // Nothing is fetched again, nor queued.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await sourcesOf(b.orgId)).map(verdictOf)).toEqual(before.map(verdictOf));
    expect(await hits(a.tag)).toEqual(hitsBefore);

    // The texts are under B's prefix, the same bytes as A's, each under the hash of its text.
    expect(await clientTextKeys(b.orgId)).toEqual(await clientTextKeys(a.orgId));
    for (const key of await clientTextKeys(a.orgId)) {
      const [left, right] = await Promise.all([a.orgId, b.orgId].map(async (orgId) => (await env.SOURCE_SNAPSHOTS.get(`orgs/${orgId}/${key}`))?.text()));
      expect(right).toBe(left);
      expect(key).toBe(`client-texts/${await sha(String(right))}.txt`);
    }
    // The ledger reads the same, and B's export carries the texts as A's did.
    expect(parseLines(await exportText(b.key)).filter((line) => line.type === "client_text")).toEqual(carried);
  });

  it("refuses a forged verdict on the assistant's text, a text that does not hash to its sha256, an oversized one, and a source naming a text the file does not carry, naming the line; nothing is kept", async () => {
    const a = await orgWithClientTexts();
    const lines = parseLines(await exportText(a.adminKey));
    const source = (basis: string, status: string) =>
      lines.findIndex((line) => line.table === "ledger_evidence" && line.row?.verification_basis === basis && line.row?.verification_status === status);
    const verifiedSource = source("client_text", "verified");
    const notFoundSource = source("client_text", "not_found");
    const textAt = lines.findIndex((line) => line.type === "client_text" && line.sha256 === lines[verifiedSource]?.row?.client_text_sha256);
    expect(Math.min(verifiedSource, notFoundSource, textAt)).toBeGreaterThan(0);
    const change = (index: number, edit: (line: Line) => Line) => lines.map((line, i) => (i === index ? edit(line) : line));
    const withRow = (index: number, row: Record<string, unknown>) => joinLines(change(index, (line) => ({ ...line, row: { ...line.row, ...row } })));
    // The text the verified source names, with the quote taken out and its hash made to match: the verdict no longer holds.
    const gutted = PAYWALLED_TEXT.replace(QUOTE, "the cells did something");
    const guttedSha = await sha(gutted);
    const forgedText = joinLines(
      change(verifiedSource, (line) => ({ ...line, row: { ...line.row, client_text_sha256: guttedSha } })).map((line, i) => (i === textAt ? { ...line, text: gutted, sha256: guttedSha } : line)),
    );
    const oversized = `${PAYWALLED_TEXT} ${"x".repeat(100_000)}`;
    const oversizedSha = await sha(oversized);
    const cases: [string, number, RegExp][] = [
      // A source the assistant's text does not hold, called verified.
      [withRow(notFoundSource, { verification_status: "verified", verification_score: 1 }), notFoundSource, /the file says verified, but judged again .* not_found/],
      [forgedText, verifiedSource, /the file says verified/],
      // A verdict on the assistant's text naming no text, or one the file does not carry.
      [withRow(verifiedSource, { client_text_sha256: null }), verifiedSource, /client_text_sha256/],
      [withRow(verifiedSource, { client_text_sha256: "0".repeat(64) }), verifiedSource, /client_text_sha256: names .* which no earlier line of this file carries/],
      [withRow(verifiedSource, { verification_snapshot: lines.find((line) => line.type === "snapshot")?.sha256 }), verifiedSource, /verification_snapshot/],
      // The text changed under its hash, a hash that is no hash, a text past the bound.
      [joinLines(change(textAt, (line) => ({ ...line, text: `${PAYWALLED_TEXT} And 900 Wh/kg.` }))), textAt, /SHA-256/],
      [joinLines(change(textAt, (line) => ({ ...line, sha256: "../../other/client-texts/x" }))), textAt, /sha256/],
      [joinLines(change(textAt, (line) => ({ ...line, text: oversized, sha256: oversizedSha }))), textAt, /at most 100000 characters/],
      [joinLines(change(textAt, (line) => ({ ...line, key: `orgs/${a.orgId}/client-texts/x.txt` }))), textAt, /not a field/],
    ];
    const b = await emptyOrg();
    for (const [body, index, reason] of cases) {
      const response = await importInto(b.key, body);
      const message = await response.text();
      expect(response.status, message).toBe(400);
      expect(message).toContain(`Line ${index + 1}`);
      expect(message).toMatch(reason);
      expect(await objectsOf(b.orgId)).toEqual([]);
      expect(await sourcesOf(b.orgId)).toEqual([]);
    }
    // Without the texts, the sources naming them are refused (the file's reference is never followed elsewhere).
    const withoutTexts = lines.filter((line) => line.type !== "client_text");
    const refused = await importInto(b.key, joinLines(withoutTexts));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`Line ${withoutTexts.findIndex((line) => line.table === "ledger_evidence") + 1}`);
    // A version 2 file carries no texts.
    const versionTwo = await importInto(b.key, joinLines(lines.map((line) => (line.type === "header" ? { ...line, formatVersion: 2 } : line))));
    expect(versionTwo.status).toBe(400);
    expect(await objectsOf(b.orgId)).toEqual([]);
  });

  it("takes back the texts a failed import wrote, counts them against the daily import bytes, and erasure leaves nothing of them", async () => {
    const a = await orgWithClientTexts();
    const text = await exportText(a.adminKey);
    const lines = parseLines(text);
    const lastText = lines.findLastIndex((line) => line.type === "client_text");
    const b = await emptyOrg();
    const bad = joinLines([...lines.slice(0, lastText + 1), { type: "row", table: "artifacts", row: { id: "art_bad" } }, ...lines.slice(lastText + 1)]);
    const failed = await importInto(b.key, bad);
    expect(failed.status).toBe(400);
    expect(await objectsOf(b.orgId)).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM org_import_journal WHERE org_id = ?").bind(b.orgId).first("n")).toBe(0);

    // A budget the file's other lines fit in, and its texts do not: refused before they are stored.
    const textBytes = lines.filter((line) => line.type === "client_text").reduce((n, line) => n + new TextEncoder().encode(JSON.stringify(line)).byteLength, 0);
    const c = await emptyOrg();
    const small = { ...(env as object), ORG_IMPORT_DAILY_BYTES: String(new TextEncoder().encode(text).byteLength - textBytes + 10) };
    const overBudget = await fetchWorkerOver(small)(
      new Request(`${ORIGIN}/api/v1/org/import`, { method: "POST", body: text, headers: { authorization: `Bearer ${c.key}`, "content-type": "application/x-ndjson" } }),
    );
    expect(overBudget.status).toBe(429);
    expect(await clientTextKeys(c.orgId)).toEqual([]);

    // Imported, then erased: nothing left under its prefix; the exporting org's texts stay.
    const d = await emptyOrg();
    expect((await importInto(d.key, text)).status).toBe(200);
    expect(await clientTextKeys(d.orgId)).toHaveLength(3);
    const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(d.orgId).first("slug"));
    expect((await api(d.key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
    expect(await objectsOf(d.orgId)).toEqual([]);
    expect(await clientTextKeys(a.orgId)).toHaveLength(3);
  });

  it("takes back the texts of an import that died half-way, when the org's next import begins", async () => {
    const a = await orgWithClientTexts();
    const lines = parseLines(await exportText(a.adminKey));
    const lastText = lines.findLastIndex((line) => line.type === "client_text");
    const b = await emptyOrg();
    let reached: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const dead = importOrg(
      env as unknown as Env,
      b.orgId,
      (async function* () {
        yield* lines.slice(0, lastText + 1).map((line) => JSON.stringify(line));
        reached();
        await new Promise(() => undefined);
      })(),
    );
    void dead.catch(() => undefined);
    await stalled;
    await waitFor("the texts written", async () => (await clientTextKeys(b.orgId)).length === 3);
    await env.DB.prepare("UPDATE orgs SET import_heartbeat_at = ? WHERE id = ?").bind(Date.now() - 61_000, b.orgId).run();
    // A file without texts or sources, so no check writes anything under the org.
    const plain = lines.filter((line) => line.type !== "client_text" && line.type !== "snapshot" && line.table !== "ledger_evidence");
    expect((await importInto(b.key, joinLines(plain))).status).toBe(200);
    expect(await objectsOf(b.orgId)).toEqual([]);
  });

  it("checks a source that arrives pending with its text on the text the import stored under the importing org", async () => {
    const a = await orgWithClientTexts();
    const lines = parseLines(await exportText(a.adminKey));
    const cleared = Object.fromEntries(["reason", "score", "passage", "basis", "title_mismatch", "snapshot", "checked_at", "edits"].map((column) => [`verification_${column}`, null]));
    const first = lines.findIndex((line) => line.table === "ledger_evidence");
    const pending = lines.map((line, i) => (i === first ? { ...line, row: { ...line.row, ...cleared, verification_status: "pending" } } : line));
    const b = await emptyOrg();
    expect((await importInto(b.key, joinLines(pending))).status).toBe(200);
    const rows = await waitFor("the pending source checked", async () => {
      const all = await sourcesOf(b.orgId);
      return all[0]?.verification_status !== "pending" ? all : null;
    });
    expect(rows[0]).toMatchObject({ verification_status: "verified", verification_basis: "client_text", client_text_sha256: await sha(PAYWALLED_TEXT) });
    expect(rows[0]?.verification_requested_at).not.toBeNull();
  });

  it("exports a source whose text is no longer kept without the text's name, and without a verdict reached on it, so the file still imports", async () => {
    const a = await orgWithClientTexts();
    const [first] = await sourcesOf(a.orgId);
    await env.SOURCE_SNAPSHOTS.delete(`orgs/${a.orgId}/client-texts/${first?.client_text_sha256}.txt`);
    const lines = parseLines(await exportText(a.adminKey));
    expect(lines.filter((line) => line.type === "client_text")).toHaveLength(2);
    const rows = lines.filter((line) => line.table === "ledger_evidence").map((line) => [line.row?.verification_status ?? null, line.row?.client_text_sha256 === null]);
    expect(rows).toEqual([
      [null, true],
      ["not_found", false],
      ["verified", false],
    ]);
    const b = await emptyOrg();
    const imported = await importInto(b.key, joinLines(lines));
    expect(imported.status, await imported.text()).toBe(200);
    // Checked afresh: the page is walled and no text stands in for it.
    const checked = await waitFor("the source without a verdict checked", async () => {
      const all = await sourcesOf(b.orgId);
      return all[0]?.verification_status === "unreachable" ? all : null;
    });
    expect(checked[0]?.client_text_sha256).toBeNull();
  });
});
