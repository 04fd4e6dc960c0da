import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../../src/env";
import { eraseOrg } from "../../src/platform/org-data/erase";
import { homeDatabase } from "../../src/platform/org-homes";
import { snapshotStore } from "../../src/platform/sources/snapshots";
import { d1SnapshotBytes } from "../../src/storage/snapshot-bytes";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { fetchWorker, ORIGIN, seedApiKey, seedOrg, seedTenant, seedUser } from "../support/worker";

/**
 * The per-org cap on snapshot bytes (SOURCE_SNAPSHOT_BYTES_PER_ORG, 1 GiB here as by default), on the real queue,
 * R2 bucket and home database: an org's count grows by each new snapshot object (once per text), and an org whose
 * next snapshot would pass the cap gets its source answered unchecked with the reason and nothing stored, while
 * another org checks as before. An org is brought to the edge of its cap by setting its count, not by storing 1 GiB.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const GiB = 1024 ** 3;

const home = (orgId: string) => homeDatabase(env as unknown as Env, orgId);
const usedBytes = async (orgId: string) => (await (await home(orgId)).prepare("SELECT snapshot_bytes FROM orgs WHERE id = ?").bind(orgId).first<{ snapshot_bytes: number }>())?.snapshot_bytes;
const setUsed = async (orgId: string, bytes: number) => (await home(orgId)).prepare("UPDATE orgs SET snapshot_bytes = ? WHERE id = ?").bind(bytes, orgId).run();
const snapshotObjects = async (orgId: string) => (await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/snapshots/` })).objects;

interface Source {
  verification: { status: string; reason?: string; basis?: string };
}

/** Records sources on a new plan of the tenant's and waits for their verdicts. */
async function check(key: string, evidence: Record<string, unknown>[]): Promise<Source[]> {
  const { planId } = await createPlan(key, { name: "[Deep] Batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  await ok(key, "record_evidence", { planId, evidence });
  return waitFor("the source checks", async () => {
    const { evidence: listed } = (await ok(key, "get_evidence_ledger", { planId, detail: "full", limit: 50 })) as { evidence: Source[] };
    return listed.every((e) => e.verification.status !== "pending") ? listed : null;
  });
}
const source = (url: string, extra: Record<string, unknown> = {}) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: QUOTE, ...extra });

describe("the per-org cap on snapshot bytes", () => {
  it("counts each new snapshot once by its bytes; at the cap a check stores nothing and answers unchecked, saying why; another org is unaffected", async () => {
    const full = await seedTenant();
    const other = await seedTenant();
    const tag = crypto.randomUUID();

    // Under the cap: verified as ever, and the count is the stored object's size. The same text at another URL adds nothing.
    const [first] = await check(full.apiKey, [source(`${origin}/article.html?a=${tag}`)]);
    expect(first?.verification.status).toBe("verified");
    const [object] = await snapshotObjects(full.orgId);
    expect(object?.size).toBeGreaterThan(0);
    expect(await usedBytes(full.orgId)).toBe(object?.size);
    const [same] = await check(full.apiKey, [source(`${origin}/article.html?b=${tag}`)]);
    expect(same?.verification.status).toBe("verified");
    expect(await usedBytes(full.orgId)).toBe(object?.size);

    // A byte short of the cap once the assistant's text is stored (it counts too): a new page's snapshot does not
    // fit. Unchecked, with the reason; not checked against the assistant's text either (Cairn read the page); no
    // snapshot stored, the count unchanged.
    await setUsed(full.orgId, GiB - 1 - new TextEncoder().encode(QUOTE).byteLength);
    const refused = await check(full.apiKey, [source(`${origin}/plain.txt?${tag}`, { quote: "the survey covered 1,204 households in 2025" }), source(`${origin}/notes.md?${tag}`, { sourceText: QUOTE })]);
    for (const s of refused) {
      expect(s.verification.status).toBe("unchecked");
      expect(s.verification.basis).not.toBe("client_text");
      expect(s.verification.reason).toMatch(/^your organization's page snapshots are full \(1 GiB\): Cairn read the page but keeps no new copy.*SOURCE_SNAPSHOT_BYTES_PER_ORG$/);
    }
    expect(await snapshotObjects(full.orgId)).toHaveLength(1);
    expect(await usedBytes(full.orgId)).toBe(GiB - 1);
    // A page whose text the org keeps already needs no new bytes: still verified at the cap.
    const [kept] = await check(full.apiKey, [source(`${origin}/article.html?c=${tag}`)]);
    expect(kept?.verification.status).toBe("verified");

    // Another org checks the same pages as before.
    const others = await check(other.apiKey, [source(`${origin}/plain.txt?${tag}`, { quote: "the survey covered 1,204 households in 2025" })]);
    expect(others[0]?.verification.status).toBe("verified");
    expect(await usedBytes(other.orgId)).toBe((await snapshotObjects(other.orgId))[0]?.size);

    // Erasure takes the count with the org.
    await eraseOrg(env as unknown as Env, full.orgId);
    expect(await (await home(other.orgId)).prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(full.orgId).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("counts the same new text stored by checks at once a single time, and lets none pass the cap together", async () => {
    const { orgId } = await seedTenant();
    const store = snapshotStore(env.SOURCE_SNAPSHOTS);
    const quota = { bytes: d1SnapshotBytes(await home(orgId)), cap: GiB };
    const page = (url: string, text: string) => ({ url, finalUrl: url, status: 200, contentType: "text/plain", title: null, fetchedAt: Date.now(), truncated: false, text });
    const same = await Promise.all([1, 2, 3, 4].map((i) => store.save(orgId, page(`https://a.example/${i}`, "the same text, four times"), quota)));
    expect(same.every((saved) => "sha256" in saved)).toBe(true);
    const objects = await snapshotObjects(orgId);
    expect(objects).toHaveLength(1);
    expect(await usedBytes(orgId)).toBe(objects[0]?.size);

    // Room for one more snapshot of this size, and two different ones arriving at once: one is stored, one is refused.
    const size = objects[0]?.size ?? 0;
    await setUsed(orgId, GiB - size - 10);
    const racing = await Promise.all(["text one, same length", "text two, same length"].map((text, i) => store.save(orgId, page(`https://b.example/${i}`, text), quota)));
    expect(racing.filter((saved) => "full" in saved)).toHaveLength(1);
    expect(await snapshotObjects(orgId)).toHaveLength(2);
    expect(await usedBytes(orgId)).toBeLessThanOrEqual(GiB);
  });

  it("counts the snapshots an import stores, and gives them back when the import is undone", async () => {
    const from = await seedTenant();
    const tag = crypto.randomUUID();
    await check(from.apiKey, [source(`${origin}/article.html?${tag}`), source(`${origin}/plain.txt?${tag}`, { quote: "the survey covered 1,204 households in 2025" })]);
    const scopes = ["research:read", "research:write", "org:admin"] as const;
    const api = (key: string, path: string, init: RequestInit = {}) => fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }));
    const exportKey = (await seedApiKey(from.orgId, from.admin.userId, [...scopes])).key;
    const text = await (await api(exportKey, "/org/export")).text();

    const into = await seedOrg();
    const admin = await seedUser(into, "admin");
    const importKey = (await seedApiKey(into, admin.userId, [...scopes])).key;
    // A file refused at its last line: its snapshots were stored and counted, then taken back with the count.
    const refused = await api(importKey, "/org/import", { method: "POST", body: `${text.trimEnd()}\n{"type":"row","table":"no_such_table","row":{}}\n`, headers: { "content-type": "application/x-ndjson" } });
    expect(refused.status, await refused.clone().text()).toBe(400);
    expect(await snapshotObjects(into)).toEqual([]);
    expect(await usedBytes(into)).toBe(0);
    const imported = await api(importKey, "/org/import", { method: "POST", body: text, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const sizes = (await snapshotObjects(into)).map((o) => o.size);
    expect(sizes).toHaveLength(2);
    expect(await usedBytes(into)).toBe(sizes.reduce((a, b) => a + b, 0));
  });
});
