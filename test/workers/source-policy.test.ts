import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { callTool, fetchWorker, ORIGIN, rest, seedApiKey, seedOrg, seedTenant, seedUser } from "../support/worker";

const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;

const source = (url: string, n = 1) => ({ url, title: `Source ${n}`, facts: `Fact ${n}: cells reached ${n * 100} Wh/kg.`, subtopic: "Density" });

async function adminTenant() {
  const tenant = await seedTenant();
  const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES])).key;
  return { ...tenant, adminKey };
}

const patch = (key: string, body: unknown) => rest(key, "/org/settings", { method: "PATCH", body: JSON.stringify(body) });

async function setPolicy(key: string, sourcePolicy: { blockedDomains?: string[]; preferredDomains?: string[] }) {
  const response = await patch(key, { sourcePolicy });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function deepPlan(key: string) {
  return createPlan(key, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
}

const evidenceRows = async (orgId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_evidence WHERE org_id = ?").bind(orgId).first<{ n: number }>())?.n ?? 0;

describe("the org's source policy over REST", () => {
  it("is kept by admins: normalized, a member gets 403 problem+json, bad domains are refused naming each, another org is unaffected", async () => {
    const { orgId, apiKey, adminKey, admin } = await adminTenant();
    // A member's key with every scope it may hold, and the admin's key without org:admin: both refused.
    const member = await seedUser(orgId, "member");
    const memberKey = (await seedApiKey(orgId, member.userId, ["research:read", "research:write"])).key;
    for (const key of [memberKey, apiKey]) {
      const refused = await patch(key, { sourcePolicy: { blockedDomains: ["example.com"] } });
      expect(refused.status).toBe(403);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    }
    expect((await rest(memberKey, "/org/settings")).status).toBe(403);

    const set = await setPolicy(adminKey, { blockedDomains: ["HTTPS://Example.COM/path", "*.spam.net", "bücher.de"], preferredDomains: ["nature.com."] });
    expect(set).toEqual({ planApproval: "optional", sourcePolicy: { blockedDomains: ["example.com", "spam.net", "xn--bcher-kva.de"], preferredDomains: ["nature.com"] }, sharing: "members", approvers: [] });
    expect(await (await rest(adminKey, "/org/settings")).json()).toEqual(set);

    // Garbage, an IP address, both ways at once, an unknown field: 400 problem+json naming each, nothing changed.
    const bad = await patch(adminKey, { sourcePolicy: { blockedDomains: ["example.com", "10.0.0.1", "not a domain"], preferredDomains: ["example.com"] } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
    const { issues } = (await bad.json()) as { issues: { path: string; message: string }[] };
    expect(issues.map((i) => i.path)).toEqual(["sourcePolicy.blockedDomains.1", "sourcePolicy.blockedDomains.2", "sourcePolicy.preferredDomains.0"]);
    expect(issues[0]?.message).toContain("is an IP address");
    expect(issues[2]?.message).toContain("example.com is both blocked and preferred");
    const unknownList = await patch(adminKey, { sourcePolicy: { allowedDomains: [] } });
    expect(unknownList.status).toBe(400);
    const tooMany = await patch(adminKey, { sourcePolicy: { blockedDomains: Array.from({ length: 501 }, (_, i) => `d${i}.example`) } });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain("At most 500 domains (501 given)");
    expect(await (await rest(adminKey, "/org/settings")).json()).toEqual(set);

    // Unblocking lowers a protection: a person's decision (an admin's key acting for people), never org:admin's alone.
    const unblock = await patch(adminKey, { sourcePolicy: { blockedDomains: ["example.com"] } });
    expect(unblock.status).toBe(403);
    expect(await unblock.text()).toContain("is a person's decision");
    const personKey = (await seedApiKey(orgId, admin.userId, ["org:admin", "plans:approve"])).key;
    // The change is audited with what was added and removed.
    await setPolicy(personKey, { blockedDomains: ["example.com"] });
    const audit = await env.DB.prepare("SELECT detail FROM audit_log WHERE org_id = ? AND action = 'org.settings_changed' ORDER BY rowid").bind(orgId).all<{ detail: string }>();
    expect(audit.results.map((row) => JSON.parse(row.detail))).toEqual([
      { blockedDomains: { added: ["example.com", "spam.net", "xn--bcher-kva.de"], removed: [], total: 3 }, preferredDomains: { added: ["nature.com"], removed: [], total: 1 } },
      { blockedDomains: { added: [], removed: ["spam.net", "xn--bcher-kva.de"], total: 1 } },
    ]);

    // Another org keeps its own (empty) policy and records from example.com freely.
    const other = await adminTenant();
    expect(await (await rest(other.adminKey, "/org/settings")).json()).toEqual({ planApproval: "optional", sourcePolicy: { blockedDomains: [], preferredDomains: [] }, sharing: "members", approvers: [] });
    const plan = await deepPlan(other.apiKey);
    await ok(other.apiKey, "record_evidence", { planId: plan.planId, evidence: [source("https://www.example.com/a")] });
  });
});

describe("the settings while an import runs", () => {
  it("refuses a change with 409 and Retry-After (the import restores the settings), and still reads them", async () => {
    const { orgId, adminKey } = await adminTenant();
    const now = Date.now();
    await env.DB.prepare("UPDATE orgs SET importing_since = ?1, import_heartbeat_at = ?1 WHERE id = ?2").bind(now, orgId).run();
    const refused = await patch(adminKey, { sourcePolicy: { blockedDomains: ["example.com"] } });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await rest(adminKey, "/org/settings")).status).toBe(200);
    expect(await env.DB.prepare("SELECT source_blocked_domains AS b FROM orgs WHERE id = ?").bind(orgId).first("b")).toBe("[]");
  });
});

describe("record_evidence under the source policy", () => {
  it("refuses a call with a source from a blocked domain, naming the rule, and records nothing of it", async () => {
    const { orgId, apiKey, adminKey } = await adminTenant();
    await setPolicy(adminKey, { blockedDomains: ["example.com"] });
    const { planId } = await deepPlan(apiKey);

    const refused = await callTool(apiKey, "record_evidence", {
      planId,
      subtopics: ["Density"],
      evidence: [source("https://nature.com/a", 1), source("https://news.EXAMPLE.com/b", 2)],
    });
    expect(refused.isError).toBe(true);
    const text = JSON.stringify(refused.body);
    expect(text).toContain("blocked by your organization's source policy: example.com");
    expect(text).toContain("evidence.1.url");
    expect(await evidenceRows(orgId)).toBe(0);
    // Not even the subtopics of the refused call.
    expect(await ok(apiKey, "get_evidence_ledger", { planId })).toMatchObject({ subtopics: [], totalEvidence: 0 });

    // REST answers the same refusal as problem+json.
    const overRest = await rest(apiKey, `/plans/${planId}/evidence`, { method: "POST", body: JSON.stringify({ evidence: [source("https://example.com/c", 3)] }) });
    expect(overRest.status).toBe(400);
    expect(overRest.headers.get("content-type")).toContain("application/problem+json");
    expect(await overRest.text()).toContain("blocked by your organization's source policy: example.com");

    // A lookalike domain is not blocked; the same call without the blocked source records.
    const recorded = await ok(apiKey, "record_evidence", { planId, evidence: [source("https://badexample.com/a", 1), source("https://nature.com/a", 2)] });
    expect(recorded).toMatchObject({ totalEvidence: 2 });
    expect(await evidenceRows(orgId)).toBe(2);
  });

  it("keeps sources recorded before their domain was blocked, and refuses reusing a claim that rests on one", async () => {
    const { orgId, apiKey, adminKey } = await adminTenant();
    const first = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId: first.planId, evidence: [source("https://blog.spam.net/post", 1)] });
    const claimed = (await ok(apiKey, "record_claims", {
      planId: first.planId,
      claims: [{ subtopic: "Density", text: "Lab cells reached 100 Wh/kg", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }],
    })) as { claims: { claimId: string }[] };
    await ok(apiKey, "record_verdicts", { planId: first.planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] });

    await setPolicy(adminKey, { blockedDomains: ["spam.net"] });
    // What was stored stays.
    const ledger = await ok(apiKey, "get_evidence_ledger", { planId: first.planId, detail: "full" });
    expect(ledger.evidence).toMatchObject([{ ref: "E1", url: "https://blog.spam.net/post" }]);

    // The claim's source is still being checked (as when the queue has not reached it): the block is still the answer,
    // since "not grounded yet" would only send the caller back to wait for a refusal.
    await env.DB.prepare("UPDATE ledger_evidence SET verification_status = 'pending' WHERE org_id = ? AND plan_id = ?").bind(orgId, first.planId).run();
    const second = await deepPlan(apiKey);
    const before = await evidenceRows(orgId);
    const reuse = await callTool(apiKey, "record_claims", { planId: second.planId, reuse: [{ claimId: claimed.claims[0]?.claimId }] });
    expect(reuse.isError).toBe(true);
    expect(JSON.stringify(reuse.body)).toContain("blocked by your organization's source policy: spam.net");
    expect(await evidenceRows(orgId)).toBe(before);
    const claims = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_claims WHERE org_id = ? AND plan_id = ?").bind(orgId, second.planId).first<{ n: number }>();
    expect(claims?.n).toBe(0);
  });
});

describe("a page read before its host was blocked", () => {
  const origin = inject("sourcePagesOrigin");
  const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
  it("is not reused once the rule holds: the check reads again, and the redirect to the blocked host ends it unreachable", async () => {
    const { orgId, apiKey, adminKey } = await adminTenant();
    // An address on an allowed host that redirects to localhost (the same fixtures under that name).
    const target = `${origin.replace("127.0.0.1", "localhost")}/article.html?kept-${crypto.randomUUID().slice(0, 8)}`;
    const cited = { url: `${origin}/redirect?to=${encodeURIComponent(target)}`, title: "Solid-state batteries", facts: "Cells reached 500 Wh/kg", subtopic: "Density", quote: QUOTE };
    const statusOf = async (planId: string) =>
      waitFor("the source check", async () => {
        const row = await env.DB.prepare("SELECT verification_status AS status, verification_reason AS reason FROM ledger_evidence WHERE org_id = ? AND plan_id = ?")
          .bind(orgId, planId)
          .first<{ status: string; reason: string | null }>();
        return row && row.status !== "pending" ? row : null;
      });
    const first = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId: first.planId, evidence: [cited] });
    expect((await statusOf(String(first.planId))).status).toBe("verified");

    await setPolicy(adminKey, { blockedDomains: ["localhost"] });
    // The same address cited again within the snapshot reuse window: its kept page came from localhost.
    const second = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId: second.planId, evidence: [cited] });
    expect(await statusOf(String(second.planId))).toEqual({ status: "unreachable", reason: "refused: a redirect was refused (blocked by your organization's source policy: localhost)" });
  });
});

describe("the ledger's count of preferred sources", () => {
  it("says how many sources come from preferred domains, only for an org that prefers some", async () => {
    const { apiKey, adminKey } = await adminTenant();
    const { planId } = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [source("https://www.nature.com/a", 1), source("https://who.int/b", 2), source("https://nature.com.evil.io/c", 3), source("https://blog.example/d", 4)],
    });
    expect(await ok(apiKey, "get_evidence_ledger", { planId })).not.toHaveProperty("preferredSources");
    await setPolicy(adminKey, { preferredDomains: ["nature.com", "who.int"] });
    expect(await ok(apiKey, "get_evidence_ledger", { planId })).toMatchObject({ totalEvidence: 4, preferredSources: 2 });
    expect(await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" })).toMatchObject({ totalEvidence: 4, preferredSources: 2 });
    const overRest = (await (await rest(apiKey, `/plans/${planId}/ledger`)).json()) as { preferredSources?: number };
    expect(overRest.preferredSources).toBe(2);
  });
});

describe("the org's settings in its export", () => {
  it("travel with the export and are restored by an import into a new org; a file with a bad policy is refused whole", async () => {
    const a = await adminTenant();
    await patch(a.adminKey, { planApproval: "required", sourcePolicy: { blockedDomains: ["example.com"], preferredDomains: ["nature.com"] } });
    const plan = await createPlan(a.apiKey, { approval: "optional" });
    await ok(a.apiKey, "record_evidence", { planId: plan.planId, evidence: [source("https://nature.com/a")] });
    const api = (key: string, path: string, init: RequestInit = {}) =>
      fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } }));
    const exported = await (await api(a.adminKey, "/org/export")).text();
    const header = JSON.parse(exported.split("\n")[0] ?? "{}") as { settings?: unknown };
    expect(header.settings).toEqual({ planApproval: "required", sourcePolicy: { blockedDomains: ["example.com"], preferredDomains: ["nature.com"] }, sharing: "members", approvers: [] });

    const intoNew = async (body: string) => {
      const orgId = await seedOrg();
      const admin = await seedUser(orgId, "admin");
      const key = (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key;
      const response = await api(key, "/org/import", { method: "POST", body, headers: { "content-type": "application/x-ndjson" } });
      return { orgId, key, response };
    };
    const b = await intoNew(exported);
    expect(b.response.status).toBe(200);
    expect(((await b.response.json()) as { imported: { settings: string } }).imported.settings).toBe("restored");
    expect(await (await rest(b.key, "/org/settings")).json()).toEqual(header.settings);

    // A hostile file: an IP address in the blocked list. Refused, nothing imported, the org's settings untouched.
    const lines = exported.split("\n");
    const hostileHeader = { ...JSON.parse(lines[0] ?? "{}"), settings: { planApproval: "required", sourcePolicy: { blockedDomains: ["127.0.0.1"], preferredDomains: [] } } };
    const hostile = await intoNew([JSON.stringify(hostileHeader), ...lines.slice(1)].join("\n"));
    expect(hostile.response.status).toBe(400);
    expect(await hostile.response.text()).toContain("is an IP address");
    expect(await (await rest(hostile.key, "/org/settings")).json()).toEqual({ planApproval: "optional", sourcePolicy: { blockedDomains: [], preferredDomains: [] }, sharing: "members", approvers: [] });
    const plans = await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(hostile.orgId).first<{ n: number }>();
    expect(plans?.n ?? 0).toBe(0);

    // An export made before settings were carried imports as before and leaves the org's settings as they are.
    const { settings: _settings, ...older } = JSON.parse(lines[0] ?? "{}");
    const old = await intoNew([JSON.stringify(older), ...lines.slice(1)].join("\n"));
    expect(old.response.status).toBe(200);
    expect(((await old.response.json()) as { imported: { settings: string } }).imported.settings).toBe("not_in_file");
    expect(await (await rest(old.key, "/org/settings")).json()).toEqual({ planApproval: "optional", sourcePolicy: { blockedDomains: [], preferredDomains: [] }, sharing: "members", approvers: [] });
  });
});
