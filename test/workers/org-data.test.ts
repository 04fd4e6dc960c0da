import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CairnError } from "../../src/domain/errors";
import type { Env } from "../../src/env";
import { exportOrg } from "../../src/platform/org-data/export";
import { importOrg } from "../../src/platform/org-data/import";
import { homeName } from "../../src/platform/org-homes";
import { streamLines } from "../../src/platform/org-data/lines";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, REPORT, steps } from "../support/plans";
import { startSession } from "../support/search-sessions";
import { addMembership, fetchWorker, fetchWorkerOver, ORIGIN, seedApiKey, seedOrg, seedTenant, seedUser, tokensFor } from "../support/worker";

const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;
/** The second home database the test configuration binds (vitest.workers.config.ts). */
const secondDb = (env as unknown as { RESEARCH_DB_2: D1Database }).RESEARCH_DB_2;

const api = (key: string, path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  return fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
};
/** An org with no research yet and an API key of its admin with every admin scope: where imports go. */
async function emptyOrg(): Promise<{ orgId: string; key: string }> {
  const orgId = await seedOrg();
  const admin = await seedUser(orgId, "admin");
  return { orgId, key: (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key };
}
const slugOf = async (orgId: string) => String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(orgId).first("slug"));
const exportText = async (key: string) => {
  const response = await api(key, "/org/export");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/x-ndjson");
  return response.text();
};
const records = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * An export read for comparison: no header, no members or API keys (the importing org has its own),
 * and every id replaced by its kind and order of first appearance, so two exports of the same content
 * under different ids read the same.
 */
function canonical(text: string): string {
  const seen = new Map<string, string>();
  return records(text)
    .filter((r) => r.type !== "header" && r.type !== "member" && !(r.type === "row" && r.table === "api_keys"))
    .map((r) => (r.type === "end" ? { ...r, counts: { ...(r.counts as object), member: "-", api_keys: "-" } } : r))
    .map((r) => JSON.stringify(r).replace(/\b(org|plan|step|art|out|exec|claim|clm|cond|aud|srch|fb|call|cmt)_[0-9a-z]{25}\b/g, (id, kind: string) => {
      if (!seen.has(id)) seen.set(id, `${kind}#${seen.size}`);
      return seen.get(id) ?? id;
    }))
    .join("\n");
}

const source = (n: number, subtopic: string) => ({
  url: `https://example.org/source-${n}`,
  title: `Source ${n}`,
  facts: `Fact ${n} about ${subtopic}.`,
  fetchedAt: "2026-11-20T10:00:00Z",
  subtopic,
  query: `${subtopic} query`,
});

/** An org with every kind of record: a deep plan mid-run with a pending review, versions, a ledger, a session, feedback. */
async function richOrg() {
  const tenant = await seedTenant();
  const member = await seedUser(tenant.orgId, "member");
  const admin = await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES]);
  const key = tenant.apiKey;
  const execution = (await ok(key, "log_skill_execution", { skillName: "research-deep", metadata: { topic: "Solid-state batteries" } })) as { executionId: string };
  const plan = await createPlan(key, {
    name: "[Deep] Solid-state batteries",
    steps: [...steps("search"), { stepType: "checkpoint", instructions: "Confirm scope" }, ...steps("synthesize")],
    citationPolicy: "report",
  });
  const first = (await ok(key, "get_next_step", { planId: plan.planId })) as { step: { stepId: string }; claimId: string };
  await ok(key, "submit_step_result", { planId: plan.planId, stepId: first.step.stepId, claimId: first.claimId, result: { found: 3 }, confidence: 0.7, stepExecutionReport: REPORT });
  await ok(key, "modify_plan", { planId: plan.planId, action: "add", modificationRationale: "One more angle", steps: [{ stepType: "analyze", instructions: "Compare costs" }] });
  const checkpoint = (await ok(key, "get_next_step", { planId: plan.planId })) as { step: { stepId: string }; claimId: string };
  await ok(key, "request_user_review", { planId: plan.planId, stepId: checkpoint.step.stepId, claimId: checkpoint.claimId, presentation: "Scope: cars only", questions: ["Include phones?"], assignee: member.email });
  // The member also approves the org's plans: the export's settings carry the group by e-mail.
  expect((await api(admin.key, "/org/settings", { method: "PUT", body: JSON.stringify({ approvers: [member.email] }) })).status).toBe(200);
  const artifact = (await ok(key, "store_research", { artifactType: "finding", title: "Electrolyte density", content: { whKg: 400 }, contentText: "Solid electrolytes reach 400 Wh/kg", planId: plan.planId })) as { artifactId: string };
  await ok(key, "store_research", { artifactId: artifact.artifactId, artifactType: "finding", title: "Electrolyte density (revised)", content: { whKg: 410 }, contentText: "Solid electrolytes reach 410 Wh/kg" });
  await ok(key, "record_evidence", { planId: plan.planId, subtopics: ["Density"], evidence: [source(1, "Density")] });
  await ok(key, "record_claims", { planId: plan.planId, claims: [{ subtopic: "Density", text: "Cells reached 400 Wh/kg", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }] });
  await ok(key, "record_verdicts", { planId: plan.planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] });
  const output = (await ok(key, "store_research_output", { planId: plan.planId, executionId: execution.executionId, title: "Report", mediaType: "markdown", content: "# Draft [E1]" })) as { outputId: string };
  await ok(key, "store_research_output", { outputId: output.outputId, planId: plan.planId, title: "Report", mediaType: "markdown", content: "# Final [E1]" });
  await ok(key, "submit_research_feedback", { planId: plan.planId, phase: "initial", satisfaction: 4, summary: "Useful" });
  // People's comments: a thread on the deliverable (anchored, with a reply, answered by a version) and one on a step.
  const comment = async (path: string, body: unknown) => ((await (await api(key, path, { method: "POST", body: JSON.stringify(body) })).json()) as { commentId: string }).commentId;
  const asked = await comment(`/outputs/${output.outputId}/comments`, { body: "Is 400 Wh/kg the cell or the pack?", anchor: { heading: "Final", quote: "Final" } });
  await comment(`/outputs/${output.outputId}/comments`, { body: "The cell.", replyTo: asked });
  await comment(`/plans/${plan.planId}/steps/${first.step.stepId}/comments`, { body: "Add the 2026 survey." });
  await ok(key, "store_research_output", { outputId: output.outputId, planId: plan.planId, title: "Report", mediaType: "markdown", content: "# Final, cell level [E1]\n\nセル単位のエネルギー密度。", answersComments: [asked] });
  const sessionId = await startSession(key);
  return { ...tenant, member, adminKey: admin.key, planId: plan.planId, checkpointStepId: checkpoint.step.stepId, artifactId: artifact.artifactId, sessionId };
}

async function orgColumnsTables(): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'").all<{ name: string }>();
  const withOrg: string[] = [];
  for (const { name } of results) {
    const { results: columns } = await env.DB.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
    if (columns.some((column) => column.name === "org_id")) withOrg.push(name);
  }
  return withOrg;
}

describe("org export, import and erasure", () => {
  it("round-trips an org into a fresh one, the plan resumes there, then erases the first and leaves the second whole", async () => {
    const a = await richOrg();
    const oauth = await tokensFor({ email: a.admin.email, password: a.admin.password });
    const first = await exportText(a.adminKey);
    const lines = records(first);
    expect(lines[0]).toMatchObject({ type: "header", format: "cairn-org-export", formatVersion: 3, org: { id: a.orgId } });
    expect(lines.at(-1)).toMatchObject({ type: "end" });
    expect(first).not.toMatch(/password_hash|key_hash|pbkdf2/i);
    // Named reviewers travel: the approver group by e-mail in the header, the review's assignee in the plan's state.
    expect(lines[0]).toMatchObject({ settings: { approvers: [a.member.email.toLowerCase()] } });
    expect(JSON.stringify(lines.filter((r) => r.type === "plan_state"))).toContain(`\\"assignee\\":\\"${a.member.userId}\\"`);
    const kinds = new Set(lines.map((r) => (r.type === "row" ? `row:${String(r.table)}` : String(r.type))));
    for (const kind of ["member", "plan_state", "session_state", "row:plans", "row:artifacts", "row:artifact_versions", "row:research_outputs", "row:research_output_versions", "row:research_feedback", "row:comments", "row:evidence_ledgers", "row:ledger_evidence", "row:ledger_claims", "row:ledger_verdicts", "row:search_sessions", "row:skill_executions", "row:api_keys"]) {
      expect(kinds, kind).toContain(kind);
    }

    // Into a fresh org of the same deployment, while the first still exists.
    const bOrg = await seedOrg();
    const bAdmin = await seedUser(bOrg, "admin");
    const bKey = (await seedApiKey(bOrg, bAdmin.userId, [...ADMIN_SCOPES])).key;
    // A's member already belongs to B too: their membership is restored; A's admin, who does not, is not added.
    await addMembership(bOrg, a.member.userId, "member");
    const imported = await api(bKey, "/org/import", { method: "POST", body: first, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as { imported: Record<string, unknown> }).imported).toMatchObject({ plans: 1, searchSessions: 1, members: { restored: 1, notRestored: 1 }, skipped: { api_keys: 2 } });
    const second = await exportText(bKey);
    const [left, right] = [canonical(first).split("\n"), canonical(second).split("\n")];
    const differing = left.findIndex((line, i) => line !== right[i]);
    expect(differing === -1 ? null : { at: differing, exported: left[differing], reimported: right[differing] }).toBeNull();
    expect(right).toHaveLength(left.length);
    // Sources still pending when exported arrive without a verdict and are checked by Cairn; checked ones arrive as they were (here: blocked hosts).
    const verdicts = async () => (await env.DB.prepare("SELECT verification_status AS s FROM ledger_evidence WHERE org_id = ?").bind(bOrg).all<{ s: string | null }>()).results.map((r) => r.s);
    expect((await verdicts()).length).toBeGreaterThan(0);
    for (let tries = 0; (await verdicts()).some((s) => s === null || s === "pending"); tries++) {
      if (tries > 100) throw new Error(`imported sources not checked: ${(await verdicts()).join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(new Set(await verdicts())).toEqual(new Set(["unreachable"]));
    const bMembers = records(second).filter((r) => r.type === "member").map((r) => r.email);
    expect(bMembers.sort()).toEqual([a.member.email, bAdmin.email].sort());

    // The copy is a live org: the review is still pending, answering it resumes the plan, search finds the copy.
    const bPlans = (await ok(bKey, "list_active_plans", {})) as { plans: { planId: string }[] };
    const bPlanId = bPlans.plans[0]?.planId ?? "";
    expect(bPlanId).not.toBe(a.planId);
    const status = (await ok(bKey, "get_plan_status", { planId: bPlanId })) as { pendingReviews: { stepId: string; questions: string[]; assignee: unknown }[] };
    expect(status.pendingReviews[0]?.questions).toEqual(["Include phones?"]);
    // The assignee and the approver group are the restored member here.
    expect(status.pendingReviews[0]?.assignee).toEqual({ email: a.member.email.toLowerCase(), name: a.member.email });
    expect(((await (await api(bKey, "/org/settings")).json()) as { approvers: string[] }).approvers).toEqual([a.member.email.toLowerCase()]);
    await ok(bKey, "submit_review", { planId: bPlanId, stepId: status.pendingReviews[0]?.stepId, decision: "approve" });
    expect(await ok(bKey, "get_next_step", { planId: bPlanId })).toMatchObject({ status: "step", step: { stepType: "synthesize" } });
    const hits = (await ok(bKey, "search_sources", { query: "electrolytes" })) as { results: { id: string }[] };
    expect(hits.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(hits)).not.toContain(a.artifactId);
    // What the index gets of an imported deliverable is made again from its text: a word inside its Japanese run is found.
    const inside = (await ok(bKey, "search_sources", { query: "密度" })) as { results: { kind: string; title: string }[] };
    expect(inside.results.map((hit) => [hit.kind, hit.title])).toEqual([["output", "Report"]]);

    // Erase the first org: a person only in it goes, everything of it goes, its credentials stop working.
    const onlyInA = await seedUser(a.orgId, "member");
    // Its webhook subscriptions and their delivery log go too.
    const hook = await api(a.adminKey, "/webhooks", { method: "POST", body: JSON.stringify({ url: "https://hooks.example.com/erased", events: ["plan.completed"] }) });
    expect(hook.status).toBe(201);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE org_id = ?").bind(a.orgId).first("n")).toBe(1);
    const refused = await api(a.adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: "not-the-slug" }) });
    expect(refused.status).toBe(400);
    const slug = (await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(a.orgId).first<{ slug: string }>())?.slug;
    const erased = await api(a.adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) });
    expect(erased.status).toBe(200);
    for (const table of await orgColumnsTables()) {
      const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE org_id = ?`).bind(a.orgId).first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(a.orgId).first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE id = ?").bind(onlyInA.userId).first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE id = ?").bind(a.member.userId).first("n")).toBe(1);
    // The full-text indexes lost exactly the erased rows: FTS5's own integrity check compares them with their tables.
    for (const fts of ["artifacts_fts", "research_outputs_fts", "ledger_claims_fts"]) {
      await expect(env.DB.prepare(`INSERT INTO ${fts}(${fts}) VALUES ('integrity-check')`).run(), fts).resolves.toBeDefined();
    }
    expect(await env.PLAN.getByName(`${a.orgId}:${a.planId}`).exportState()).toBeNull();
    expect(await env.SEARCH_SESSION.getByName(`${a.orgId}:${a.sessionId}`).exportState()).toBeNull();
    expect((await api(a.apiKey, "/plans")).status).toBe(401);
    expect((await api(oauth.tokens.access_token, "/plans")).status).toBe(401);

    // The second org is untouched (the answered review and the claimed step aside).
    const again = records(await exportText(bKey));
    expect(again.filter((r) => r.type === "row" && r.table === "artifact_versions")).toHaveLength(2);
    expect(again.filter((r) => r.type === "plan_state")).toHaveLength(1);
  });

  it("moves an org to another database: export, import into a new org placed there, erase the first; each database holds only its own", async () => {
    const a = await richOrg();
    const first = await exportText(a.adminKey);
    // The new org is placed (first use) while the deployment lists only the second database for new orgs.
    const bOrg = await seedOrg();
    expect(await homeName({ ...env, ORG_DATABASES: "RESEARCH_DB_2" } as never, bOrg)).toBe("RESEARCH_DB_2");
    expect(await homeName(env as never, a.orgId)).toBe("DB");
    const bAdmin = await seedUser(bOrg, "admin");
    const bKey = (await seedApiKey(bOrg, bAdmin.userId, [...ADMIN_SCOPES])).key;
    const imported = await api(bKey, "/org/import", { method: "POST", body: first, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status).toBe(200);
    const second = await exportText(bKey);
    expect(canonical(second)).toBe(canonical(first));

    // Research rows of the moved org are in its home only; the directory keeps its people and credentials.
    const counts = async (db: D1Database, orgId: string) => {
      const out: Record<string, number> = {};
      for (const table of await orgColumnsTables()) out[table] = Number(await db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE org_id = ?`).bind(orgId).first("n"));
      return out;
    };
    const inHome = await counts(secondDb, bOrg);
    const inDirectory = await counts(env.DB, bOrg);
    for (const table of ["plans", "artifacts", "artifact_versions", "research_outputs", "research_output_versions", "research_feedback", "comments", "evidence_ledgers", "ledger_evidence", "ledger_claims", "ledger_verdicts", "skill_executions"]) {
      expect(inHome[table], table).toBeGreaterThan(0);
      expect(inDirectory[table], table).toBe(0);
    }
    expect(inDirectory.memberships).toBeGreaterThan(0);
    expect(inDirectory.search_sessions).toBe(1);
    expect(inHome.memberships).toBe(0);
    expect(Object.values(await counts(secondDb, a.orgId)).every((n) => n === 0)).toBe(true);

    // The moved plan resumes; search finds the moved research and nothing of the first org.
    const bPlanId = ((await ok(bKey, "list_active_plans", {})) as { plans: { planId: string }[] }).plans[0]?.planId ?? "";
    const status = (await ok(bKey, "get_plan_status", { planId: bPlanId })) as { pendingReviews: { stepId: string }[] };
    await ok(bKey, "submit_review", { planId: bPlanId, stepId: status.pendingReviews[0]?.stepId, decision: "approve" });
    expect(await ok(bKey, "get_next_step", { planId: bPlanId })).toMatchObject({ status: "step", step: { stepType: "synthesize" } });
    expect(await secondDb.prepare("SELECT status FROM plans WHERE org_id = ? AND plan_id = ?").bind(bOrg, bPlanId).first("status")).toBe("active");
    const hits = (await ok(bKey, "search_sources", { query: "electrolytes" })) as { results: { id: string }[] };
    expect(hits.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(hits)).not.toContain(a.artifactId);

    // Erasing the first org leaves the moved one whole; erasing the moved one empties its home, its copy of the org row included.
    expect((await api(a.adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: await slugOf(a.orgId) }) })).status).toBe(200);
    expect(records(await exportText(bKey)).filter((r) => r.type === "row" && r.table === "artifact_versions")).toHaveLength(2);
    expect((await api(bKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: await slugOf(bOrg) }) })).status).toBe(200);
    for (const db of [env.DB, secondDb]) expect(Object.values(await counts(db, bOrg)).every((n) => n === 0)).toBe(true);
    expect(await secondDb.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(bOrg).first("n")).toBe(0);
    for (const fts of ["artifacts_fts", "research_outputs_fts", "ledger_claims_fts"]) {
      await expect(secondDb.prepare(`INSERT INTO ${fts}(${fts}) VALUES ('integrity-check')`).run(), fts).resolves.toBeDefined();
    }
  });

  it("pages through D1: more rows than a page come out complete and in order", async () => {
    const { orgId, apiKey } = await seedTenant();
    for (let i = 0; i < 5; i++) await ok(apiKey, "store_research", { artifactType: "note", title: `Note ${i}`, content: { i }, contentText: `note ${i}` });
    const titles: string[] = [];
    for await (const record of exportOrg(env as never, orgId, { toolCalls: false, pageRows: 2 })) {
      if (record.type === "row" && record.table === "artifacts") titles.push(String(record.row.title));
    }
    expect(titles).toEqual(["Note 0", "Note 1", "Note 2", "Note 3", "Note 4"]);
  });

  it("refuses bad imports with a clear error and leaves the org as it was", async () => {
    const a = await richOrg();
    const good = await exportText(a.adminKey);
    const { orgId: target, key } = await emptyOrg();
    const post = (body: string) => api(key, "/org/import", { method: "POST", body });
    const memberships = async () => env.DB.prepare("SELECT COUNT(*) AS n FROM memberships WHERE org_id = ?").bind(target).first("n");

    const lines = good.split("\n").filter(Boolean);
    const newer = [JSON.stringify({ ...JSON.parse(lines[0] ?? "{}"), formatVersion: 9 }), ...lines.slice(1)].join("\n");
    const wrongVersion = await post(newer);
    expect(wrongVersion.status).toBe(400);
    expect(await wrongVersion.text()).toContain("export format version 9");

    // Cut before the end line: the plan and rows it had already written are taken back.
    const truncated = await post(lines.slice(0, -1).join("\n"));
    expect(truncated.status).toBe(400);
    expect(await truncated.text()).toContain("without its end line");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(target).first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts WHERE org_id = ?").bind(target).first("n")).toBe(0);
    expect(await memberships()).toBe(1);

    const hostile = await post([lines[0], JSON.stringify({ type: "row", table: "artifacts", row: { "id) VALUES (1); --": "x" } }), lines.at(-1)].join("\n"));
    expect(hostile.status).toBe(400);

    expect((await post(good)).status).toBe(200);
    const twice = await post(good);
    expect(twice.status).toBe(409);

    // Not an admin's credential: refused before anything is read.
    expect((await api(a.apiKey, "/org/export")).status).toBe(403);
  });

  it("runs one import into an org at a time: a second one meanwhile is refused and cannot undo the first", async () => {
    const a = await richOrg();
    const lines = (await exportText(a.adminKey)).split("\n").filter(Boolean);
    const { orgId: target, key } = await emptyOrg();
    const count = (table: string) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE org_id = ?`).bind(target).first<number>("n");

    // The first import stops after its header, as a slow upload would, until the test lets it go on.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const reading = new Promise<void>((resolve) => {
      started = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const encoder = new TextEncoder();
        controller.enqueue(encoder.encode(`${lines[0]}\n`));
        started();
        await held;
        controller.enqueue(encoder.encode(`${lines.slice(1).join("\n")}\n`));
        controller.close();
      },
    });
    const first = api(key, "/org/import", { method: "POST", body, duplex: "half" } as RequestInit);
    await reading;
    await new Promise((resolve) => setTimeout(resolve, 100));

    // A second import meanwhile, and a bad one at that: refused before it reads a line, so its undo never runs.
    const second = await api(key, "/org/import", { method: "POST", body: lines.slice(0, -1).join("\n") });
    expect(second.status).toBe(409);
    expect(second.headers.get("retry-after")).toBe("30");
    expect(await second.text()).toContain("Another import into this organization is running");
    // Nor may the org be erased under the import (its rows written after the erasure would be left behind).
    const slug = await slugOf(target);
    const erase = await api(key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) });
    expect(erase.status).toBe(409);
    expect(erase.headers.get("retry-after")).toBe("30");
    expect(await erase.text()).toContain("An import into this organization is running");

    release();
    const done = await first;
    expect(done.status).toBe(200);
    expect(await count("plans")).toBe(1);
    expect(await count("artifacts")).toBe(1);
    // Finished: the org is free again (and now holds research, which is the next import's refusal).
    expect(await env.DB.prepare("SELECT importing_since FROM orgs WHERE id = ?").bind(target).first("importing_since")).toBeNull();
    const again = await api(key, "/org/import", { method: "POST", body: lines.join("\n") });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already holds research");
  });

  it("refuses an import that starts while the org is being erased, so nothing it writes outlives the erasure", async () => {
    const a = await richOrg();
    const lines = (await exportText(a.adminKey)).split("\n").filter(Boolean);
    const { orgId: target, key } = await emptyOrg();
    const home = await homeName(env as never, target);
    const slug = await slugOf(target);

    // The import starts at the worst moment: the erasure has deleted the research (so the org looks empty) and is
    // revoking access (listing in OAUTH_KV), with the org row and its memberships still there.
    let importing: Promise<unknown> | null = null;
    const kv = new Proxy(env.OAUTH_KV, {
      get(target_, property) {
        if (property === "list") {
          return (...args: Parameters<KVNamespace["list"]>) => {
            importing ??= importOrg(env as never, target, (async function* () {
              yield* lines;
            })()).then(
              (summary) => ({ imported: summary }),
              (error: unknown) => error,
            );
            return importing.then(() => target_.list(...args));
          };
        }
        const value: unknown = Reflect.get(target_, property, target_);
        return typeof value === "function" ? value.bind(target_) : value;
      },
    });
    const erased = await fetchWorkerOver({ ...(env as unknown as Env), OAUTH_KV: kv })(new Request(`${ORIGIN}/api/v1/org`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ confirm: slug }),
    }));
    expect(erased.status).toBe(200);
    expect(importing).not.toBeNull();
    // Assigned inside the proxy, which TypeScript does not follow.
    const outcome: unknown = await (importing as Promise<unknown> | null);
    expect(outcome).toBeInstanceOf(CairnError);
    expect((outcome as CairnError).code).toBe("org_erasing");
    expect((outcome as CairnError).message).toContain("being erased");
    // Nothing of the org is left in either database.
    const homeDb = home === "DB" ? env.DB : secondDb;
    for (const db of [env.DB, homeDb]) {
      for (const table of await orgColumnsTables()) {
        expect(Number(await db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE org_id = ?`).bind(target).first("n")), table).toBe(0);
      }
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(target).first("n")).toBe(0);
  });

  it("an erasure that stopped half-way keeps imports out until it is run again", async () => {
    const { orgId: target, key } = await emptyOrg();
    const slug = await slugOf(target);
    // As an erasure whose Worker died after marking the org: a rerun takes over, an import is refused.
    await env.DB.prepare("UPDATE orgs SET erasing_since = ? WHERE id = ?").bind(Date.now() - 5 * 60_000, target).run();
    const refused = await api(key, "/org/import", { method: "POST", body: "{}" });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(await refused.text()).toContain("being erased");
    expect((await api(key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(target).first("n")).toBe(0);
  });

  it("frees the org after a failed import, and takes over an import lock whose heartbeat stopped over a minute ago", async () => {
    const a = await richOrg();
    const lines = (await exportText(a.adminKey)).split("\n").filter(Boolean);
    const { orgId: target, key } = await emptyOrg();
    const post = (text: string) => api(key, "/org/import", { method: "POST", body: text });

    expect((await post(lines.slice(0, -1).join("\n"))).status).toBe(400);
    expect(await env.DB.prepare("SELECT importing_since FROM orgs WHERE id = ?").bind(target).first("importing_since")).toBeNull();

    // A lock whose heartbeat is fresh holds, however long ago the import began; one whose heartbeat is over a minute old is an import whose Worker is gone.
    await env.DB.prepare("UPDATE orgs SET importing_since = ?, import_heartbeat_at = ? WHERE id = ?").bind(Date.now() - 10 * 60_000, Date.now() - 5_000, target).run();
    expect((await post(lines.join("\n"))).status).toBe(409);
    await env.DB.prepare("UPDATE orgs SET import_heartbeat_at = ? WHERE id = ?").bind(Date.now() - 61_000, target).run();
    expect((await post(lines.join("\n"))).status).toBe(200);
  });

  it("answers a wrong method with 405 and Allow, and a credential without org:admin (a member's never has it) with the step-up challenge", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const adminKey = (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key;
    const memberKey = (await seedApiKey(orgId, member.userId, [...ADMIN_SCOPES])).key;

    const wrongMethod = await api(adminKey, "/org/export", { method: "POST" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    const noScope = await api(apiKey, "/org/export");
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("www-authenticate")).toContain("insufficient_scope");
    // A member's credential never carries org:admin, whatever the key row says: the role narrows the scopes.
    const notAdmin = await api(memberKey, "/org/export");
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.headers.get("www-authenticate")).toContain('scope="org:admin"');
    expect((await api(adminKey, "/org/export")).status).toBe(200);
  });

  it("lets an admin delete the org from the dashboard only by typing its slug; a member cannot", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const member = await seedUser(orgId, "member");
    const slug = await slugOf(orgId);

    const memberVisitor = new Visitor();
    await memberVisitor.signIn(member.email, member.password);
    expect((await memberVisitor.post("/dashboard/admin/org/delete", { csrf: await memberVisitor.csrf(), confirm: slug })).status).toBe(403);

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const adminPage = await (await visitor.get("/dashboard/admin")).text();
    expect(adminPage).toContain(`Delete ${slug} and everything in it`);
    const csrf = Visitor.csrfOf(adminPage);
    const wrong = await visitor.post("/dashboard/admin/org/delete", { csrf, confirm: `${slug}x` });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Nothing was deleted");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(orgId).first("n")).toBe(1);
    expect((await visitor.post("/dashboard/admin/org/delete", { confirm: slug })).status).toBe(403);

    // While an import runs into the org, deleting it waits, and says why.
    await env.DB.prepare("UPDATE orgs SET importing_since = ? WHERE id = ?").bind(Date.now(), orgId).run();
    const busy = await visitor.post("/dashboard/admin/org/delete", { csrf, confirm: slug });
    expect(busy.status).toBe(409);
    expect(await busy.text()).toContain("An import into this organization is running");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(orgId).first("n")).toBe(1);
    await env.DB.prepare("UPDATE orgs SET importing_since = NULL WHERE id = ?").bind(orgId).run();

    const done = await visitor.post("/dashboard/admin/org/delete", { csrf, confirm: slug });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Organization deleted");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(orgId).first("n")).toBe(0);
    expect(await env.PLAN.getByName(`${orgId}:${planId}`).exportState()).toBeNull();
    expect((await visitor.get("/dashboard/plans")).status).toBe(303);
    expect((await api(apiKey, "/plans")).status).toBe(401);
  });

  it("reads a streamed file line by line and refuses a line over the limit", async () => {
    const body = (text: string) => new Response(text).body;
    const read = async (text: string, max: number) => {
      const out: string[] = [];
      for await (const line of streamLines(body(text), max)) out.push(line);
      return out;
    };
    expect(await read("a\r\nb\n\nc", 10)).toEqual(["a", "b", "", "c"]);
    await expect(read(`short\n${"x".repeat(50)}\n`, 20)).rejects.toThrow("A line of the file is longer than 20 bytes.");
  });
});
