import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../../src/env";
import { homeDatabase } from "../../src/platform/org-homes";
import { clientTextStore } from "../../src/platform/sources/client-texts";
import { d1SnapshotBytes } from "../../src/storage/snapshot-bytes";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { callTool, fetchWorker, ORIGIN, rest, seedApiKey, seedOrg, seedTenant, seedUser } from "../support/worker";

/**
 * The texts assistants send for pages Cairn cannot reach (sourceText) count toward the same per-org cap as Cairn's
 * own page snapshots (SOURCE_SNAPSHOT_BYTES_PER_ORG, 1 GiB here as by default), on the real R2 bucket and home
 * database: each new text by its bytes, once per text; a call whose texts would pass the cap is refused naming it,
 * with nothing recorded or stored; an import counts the texts it stores and an undone one gives them back. The
 * sources are behind the fixture's bot wall (403), so Cairn stores no snapshot of its own and the count is the texts'.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const GiB = 1024 ** 3;
const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;

const home = (orgId: string) => homeDatabase(env as unknown as Env, orgId);
const usedBytes = async (orgId: string) => (await (await home(orgId)).prepare("SELECT snapshot_bytes FROM orgs WHERE id = ?").bind(orgId).first<{ snapshot_bytes: number }>())?.snapshot_bytes;
const setUsed = async (orgId: string, bytes: number) => (await home(orgId)).prepare("UPDATE orgs SET snapshot_bytes = ? WHERE id = ?").bind(bytes, orgId).run();
const objectsUnder = async (orgId: string, kind: "client-texts" | "snapshots") => (await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/${kind}/` })).objects;
const sizeOf = async (orgId: string, kind: "client-texts" | "snapshots") => (await objectsUnder(orgId, kind)).reduce((sum, o) => sum + o.size, 0);
const sourceRows = async (orgId: string) => (await (await home(orgId)).prepare("SELECT COUNT(*) AS n FROM ledger_evidence WHERE org_id = ?").bind(orgId).first<{ n: number }>())?.n;

const walled = (tag: string, sourceText: string) => ({
  url: `${origin}/forbidden?${tag}`,
  title: "Solid-state batteries reach 500 Wh/kg",
  facts: `What ${tag} says`,
  subtopic: "Density",
  quote: QUOTE,
  sourceText,
});
const paywalled = (n: string) => `Subscribers only (${n}).\n\nIn March, the team reported that ${QUOTE}, a record for the chemistry.`;

async function settled(key: string, planId: string) {
  return waitFor("the source checks", async () => {
    const { evidence } = (await ok(key, "get_evidence_ledger", { planId, detail: "full", limit: 50 })) as { evidence: { verification: { status: string; basis?: string } }[] };
    return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
  });
}

describe("the per-org cap on page bytes, for the texts assistants send", () => {
  it("counts a new text by its bytes and the same text once; past the cap refuses the call naming the cap, recording and storing nothing; another org is unaffected", async () => {
    const full = await seedTenant();
    const other = await seedTenant();
    const tag = crypto.randomUUID();
    const { planId } = await createPlan(full.apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });

    // Under the cap: stored and counted by the object's size (UTF-8 bytes); checked on the text as before.
    const text = `${paywalled(tag)} — naïve café`;
    await ok(full.apiKey, "record_evidence", { planId, evidence: [walled(`a-${tag}`, text)] });
    const [stored] = await objectsUnder(full.orgId, "client-texts");
    expect(stored?.size).toBe(new TextEncoder().encode(text).byteLength);
    expect(await usedBytes(full.orgId)).toBe(stored?.size);
    // The same text again, for another source and twice in one call: nothing more is stored or counted.
    await ok(full.apiKey, "record_evidence", { planId, evidence: [walled(`b-${tag}`, text), walled(`c-${tag}`, text)] });
    expect(await objectsUnder(full.orgId, "client-texts")).toHaveLength(1);
    expect(await usedBytes(full.orgId)).toBe(stored?.size);
    const checked = await settled(full.apiKey, planId);
    expect(checked.map((s) => [s.verification.status, s.verification.basis])).toEqual([...Array(3)].map(() => ["verified", "client_text"]));
    expect(await objectsUnder(full.orgId, "snapshots")).toEqual([]);

    // A few bytes short of the cap: a call with a new text (beside one the org keeps and a source without text) is
    // refused on both faces, naming the cap and how to go on; no source recorded, no text stored, the count unchanged.
    await setUsed(full.orgId, GiB - 10);
    const call = [walled(`d-${tag}`, text), walled(`e-${tag}`, paywalled(`new ${tag}`)), { ...walled(`f-${tag}`, ""), sourceText: undefined }];
    const refused = await callTool(full.apiKey, "record_evidence", { planId, evidence: call });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: { code: "payload_too_large" } });
    expect(JSON.stringify(refused.body)).toContain("at most 1 GiB of page text (SOURCE_SNAPSHOT_BYTES_PER_ORG)");
    expect(JSON.stringify(refused.body)).toContain("without sourceText");
    const overRest = await rest(full.apiKey, `/plans/${planId}/evidence`, { method: "POST", body: JSON.stringify({ evidence: call }) });
    expect(overRest.status).toBe(413);
    expect(((await overRest.json()) as { detail: string }).detail).toContain("nothing was recorded");
    expect(await sourceRows(full.orgId)).toBe(3);
    expect(await objectsUnder(full.orgId, "client-texts")).toHaveLength(1);
    expect(await usedBytes(full.orgId)).toBe(GiB - 10);
    // The same sources without their texts are recorded at the cap (Cairn reads each page itself); a text the org
    // keeps already needs no new bytes.
    await ok(full.apiKey, "record_evidence", { planId, evidence: [walled(`d-${tag}`, text), { ...walled(`e-${tag}`, ""), sourceText: undefined }] });
    expect(await sourceRows(full.orgId)).toBe(5);
    expect(await usedBytes(full.orgId)).toBe(GiB - 10);

    // Another org stores the very text that was refused.
    const { planId: otherPlan } = await createPlan(other.apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(other.apiKey, "record_evidence", { planId: otherPlan, evidence: [walled(`e-${tag}`, paywalled(`new ${tag}`))] });
    expect(await usedBytes(other.orgId)).toBe(new TextEncoder().encode(paywalled(`new ${tag}`)).byteLength);
  });

  it("counts the same new text stored by calls at once a single time, and lets none pass the cap together", async () => {
    const { orgId } = await seedTenant();
    const store = clientTextStore(env.SOURCE_SNAPSHOTS, { bytes: d1SnapshotBytes(await home(orgId)), cap: GiB });
    const same = await Promise.all([1, 2, 3, 4].map(() => store.save(orgId, ["the same text, four times"])));
    expect(same.every((saved) => "sha256s" in saved)).toBe(true);
    expect(await objectsUnder(orgId, "client-texts")).toHaveLength(1);
    expect(await usedBytes(orgId)).toBe("the same text, four times".length);

    // Room for one more text of this length, and two different ones arriving at once: one is stored, one is refused.
    await setUsed(orgId, GiB - 30);
    const racing = await Promise.all(["text one, same length", "text two, same length"].map((text) => store.save(orgId, [text])));
    expect(racing.filter((saved) => "full" in saved)).toEqual([{ full: GiB }]);
    expect(await objectsUnder(orgId, "client-texts")).toHaveLength(2);
    expect(await usedBytes(orgId)).toBe(GiB - 30 + "text one, same length".length);
  });

  it("counts the texts an import stores, and gives them back when the import is undone", async () => {
    const from = await seedTenant();
    const tag = crypto.randomUUID();
    const { planId } = await createPlan(from.apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(from.apiKey, "record_evidence", { planId, evidence: [walled(`a-${tag}`, paywalled(`one ${tag}`)), walled(`b-${tag}`, paywalled(`two ${tag}`))] });
    await settled(from.apiKey, planId);
    const api = (key: string, path: string, init: RequestInit = {}) => fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }));
    const exportKey = (await seedApiKey(from.orgId, from.admin.userId, [...ADMIN_SCOPES])).key;
    const text = await (await api(exportKey, "/org/export")).text();

    const into = await seedOrg();
    const admin = await seedUser(into, "admin");
    const importKey = (await seedApiKey(into, admin.userId, [...ADMIN_SCOPES])).key;
    // A file refused at its last line: its texts were stored and counted, then taken back with the count.
    const refused = await api(importKey, "/org/import", { method: "POST", body: `${text.trimEnd()}\n{"type":"row","table":"no_such_table","row":{}}\n`, headers: { "content-type": "application/x-ndjson" } });
    expect(refused.status, await refused.clone().text()).toBe(400);
    expect(await objectsUnder(into, "client-texts")).toEqual([]);
    expect(await usedBytes(into)).toBe(0);
    const imported = await api(importKey, "/org/import", { method: "POST", body: text, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await objectsUnder(into, "client-texts")).toHaveLength(2);
    expect(await objectsUnder(into, "snapshots")).toEqual([]);
    expect(await usedBytes(into)).toBe(await sizeOf(into, "client-texts"));
    expect(await usedBytes(into)).toBe(await usedBytes(from.orgId));
  });
});
