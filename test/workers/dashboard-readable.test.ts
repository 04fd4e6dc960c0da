import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, REPORT, sourceChecksSettled, steps } from "../support/plans";
import { adminOf, waitFor } from "../support/webhooks";
import { rest, seedApiKey, seedTenant } from "../support/worker";

/**
 * What the dashboard shows a person, on workerd: re-checks after delivery run on Miniflare's real source-check
 * queue against the loopback fixture pages (test/support/source-pages.global.ts: `/changing/NAME` serves one article
 * until a test changes it), so every page below is the one a browser gets.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";

/** A page of this test's own, serving the shared article until the test changes it. */
function page() {
  const name = `r-${crypto.randomUUID().slice(0, 8)}`;
  const control = (init: RequestInit) => fetch(`${origin}/control/changing/${name}`, init).then((r) => expect(r.status).toBe(204));
  return {
    url: `${origin}/changing/${name}`,
    edit: () => control({ method: "PUT", body: JSON.stringify({ type: "text/html", body: "<title>Solid-state batteries</title><p>The article was rewritten; no figures remain.</p>" }) }),
    remove: () => control({ method: "PUT", body: JSON.stringify({ status: 404, type: "text/html", body: "<p>Not here</p>" }) }),
  };
}

const source = (url: string) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: `What ${url} says`, subtopic: "Density", quote: QUOTE });

async function checkedAt(orgId: string, planId: string, n: number): Promise<number> {
  const row = await env.DB.prepare("SELECT verification_checked_at AS at FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?").bind(orgId, planId, n).first<{ at: number | null }>();
  return row?.at ?? 0;
}

/** The slice of a page from the element with this id to the end of its section (the next `<section`, or the end). */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, `${id} on the page`).toBeGreaterThan(-1);
  const end = html.indexOf("<section", start);
  return html.slice(start, end === -1 ? undefined : end);
}

describe("re-checked sources, as the dashboard shows them", () => {
  it("labels each reading with its own source's URL (two pages with the same text share one snapshot), and the ledger shows changed, gone and needs re-verification", async () => {
    const { apiKey, adminKey, orgId, admin } = await adminOf();
    const [own, twin, removed] = [page(), page(), page()];
    const { planId } = await createPlan(apiKey, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    // E1 is read first; E2 and E3 serve the same text later, so the one stored snapshot of that text now names their URL.
    await ok(apiKey, "record_evidence", { planId, evidence: [source(own.url)] });
    await sourceChecksSettled(apiKey, planId);
    await ok(apiKey, "record_evidence", { planId, evidence: [source(twin.url), source(removed.url)] });
    await sourceChecksSettled(apiKey, planId);
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Solid-state cells reached 500 Wh/kg", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }] });
    await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] });
    await ok(apiKey, "store_research_output", { planId, title: "Solid-state batteries", mediaType: "markdown", content: "Cells reached 500 Wh/kg [C1] [E2] [E3]." });

    // E1's page is rewritten without the quote, E3's taken down; a re-check finds both.
    await own.edit();
    await removed.remove();
    const before = [await checkedAt(orgId, planId, 1), await checkedAt(orgId, planId, 3)];
    expect((await rest(adminKey, "/sources/recheck", { method: "POST" })).status).toBe(202);
    await waitFor("E1 and E3 re-checked", async () => (await checkedAt(orgId, planId, 1)) > (before[0] ?? 0) && (await checkedAt(orgId, planId, 3)) > (before[1] ?? 0), 25_000);

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const sourcePage = await (await visitor.get(`/dashboard/plans/${planId}/sources/E1`)).text();
    const previous = sectionOf(sourcePage, "previous-reading");
    expect(previous).toContain("<mark");
    // The previous reading is E1's own page, whatever other source's page had the same text.
    expect(previous).toContain(own.url);
    expect(previous).not.toContain(twin.url);
    expect(previous).not.toContain(removed.url);

    const plan = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    const ledger = sectionOf(plan, "evidence-ledger");
    expect(ledger).toMatch(/id="source-E1"[\s\S]*?data-recheck="changed"[\s\S]*?changed since verified/);
    expect(ledger).toMatch(/id="source-E3"[\s\S]*?data-recheck="gone"[\s\S]*?gone since verified/);
    expect(ledger.slice(ledger.indexOf('id="source-E2"'), ledger.indexOf('id="source-E3"'))).not.toContain("data-recheck");
    expect(ledger).toMatch(/id="claim-C1"[\s\S]*?data-needs-reverification[\s\S]*?needs re-verification[\s\S]*?E1/);
  });
});

/** A page's text as a person reads it: tags dropped, entities decoded, spaces collapsed. */
const readText = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

const PRESENTATION = [
  "## Findings so far",
  "",
  "- Monocrystalline modules: **24 %** in production",
  "- Thin film: *falling*",
  "",
  "<script>alert(1)</script> [a link](javascript:alert(2)) <img src=x onerror=alert(3)>",
].join("\n");

/** Submits the claimed step's result. */
async function submit(key: string, planId: string, result: unknown) {
  const next = (await ok(key, "get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
  await ok(key, "submit_step_result", { planId, stepId: next.step.stepId, claimId: next.claimId, result, confidence: 0.8, stepExecutionReport: REPORT });
}

describe("the dashboard shows what assistants wrote as a person reads it", () => {
  it("renders presentations, questions and notes as escaped Markdown; summaries and the interview as labelled text; the execution by its topic; the budget fields apart", async () => {
    const { admin, apiKey, orgId } = await seedTenant();
    const execution = (await ok(apiKey, "log_skill_execution", {
      skillName: "research",
      sessionId: "sess-readable",
      metadata: { topic: "Solar module technologies", depthSignals: ["quick"], priorResearchCheck: { decision: "none_found", artifactIds: [] } },
    })) as { executionId: string };
    const { planId } = await createPlan(apiKey, {
      sessionId: "sess-readable",
      approval: "required",
      budget: { maxSteps: 8, maxTokens: 200_000 },
      steps: [
        { stepType: "search", instructions: "Find production shares" },
        { stepType: "checkpoint", instructions: "Confirm the findings" },
        { stepType: "synthesize", instructions: "Write it up" },
      ],
    });
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);

    // The approval: its steps a numbered list of purposes, each budget field its label, the limit now, and its box.
    const approval = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    const form = approval.slice(approval.indexOf('data-review-kind="approval"'));
    expect(form.slice(0, 3000)).toMatch(/<ol class="step-lines" data-approval-steps="true"><li data-step-line="[^"]+">Find production shares <span class="muted">\(search\)<\/span><\/li>/);
    expect(form).toContain("up to 8 steps, 200,000 tokens");
    expect(form).toMatch(/data-budget-field="maxSteps"><label for="maxSteps-[^"]+">Steps<\/label><span class="muted">now 8<\/span><input /);
    expect(form).toMatch(/data-budget-field="maxTokens"><label for="maxTokens-[^"]+">Tokens<\/label><span class="muted">now 200,000<\/span><input /);
    expect(readText(form)).not.toContain("(now 8)");
    // Approved by a person's credential (plans:approve), naming the version the person saw.
    const status = (await ok(apiKey, "get_plan_status", { planId })) as { pendingReviews: { reviewId: string; planVersion: number }[] };
    const approver = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "plans:approve"])).key;
    await ok(approver, "submit_review", { planId, stepId: status.pendingReviews[0]?.reviewId, decision: "approve", planVersion: status.pendingReviews[0]?.planVersion });

    await submit(apiKey, planId, { "key findings": "mono 24%", regions: ["EU", "US"], detail: { deep: { deeper: { deepest: { gone: "too deep" } } } } });
    const checkpoint = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
    await ok(apiKey, "request_user_review", { planId, stepId: checkpoint.step.stepId, claimId: checkpoint.claimId, presentation: PRESENTATION, questions: ["Keep **thin film** in scope?"] });

    for (const path of ["/dashboard/reviews", `/dashboard/plans/${planId}`]) {
      const html = await (await visitor.get(path)).text();
      const review = html.slice(html.indexOf(`data-review-step="${checkpoint.step.stepId}"`));
      expect(review, path).toContain("<h2>Findings so far</h2>");
      expect(review, path).toMatch(/<li>Monocrystalline modules: <strong>24 %<\/strong> in production<\/li>/);
      expect(review, path).toContain("<em>falling</em>");
      expect(review, path).toContain("<strong>thin film</strong>");
      // Raw HTML is text, and a javascript: link loses its URL.
      expect(review, path).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(html, path).not.toContain("<script>alert(1)");
      expect(html, path).not.toContain("<img src=x");
      expect(html, path).not.toMatch(/href="javascript:/i);
    }

    const plan = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    const summaryAt = plan.indexOf('class="result-summary">') + 'class="result-summary">'.length;
    const summary = readText(plan.slice(summaryAt, plan.indexOf("</dd>", summaryAt)));
    expect(summary).toContain("Key findings: mono 24%");
    expect(summary).toContain("Regions: EU, US");
    // Nested deeper than the view goes: a clear "…", never JSON.
    expect(summary).toMatch(/Deeper: Deepest: …/);
    expect(summary).not.toContain("too deep");
    expect(summary).not.toMatch(/[{}"]/);
    expect(plan).toMatch(new RegExp(`id="plan-execution"><a href="/dashboard/executions/${execution.executionId}">Solar module technologies</a>`));

    const detail = readText(await (await visitor.get(`/dashboard/executions/${execution.executionId}`)).text());
    expect(detail).toContain("Depth signals quick");
    expect(detail).toContain("Prior research Decision: none found: new research Artifact ids: —");
    expect(detail).not.toContain("none_found");
    expect(detail).not.toContain('[ "quick" ]');
  });
});

describe("resultSummary", () => {
  it("is an object on every face: { text } for a text result, the bounded object, and a summary stored as text before reads as { text }", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    await submit(apiKey, planId, "Mono modules hold 24% of production");
    await submit(apiKey, planId, { "key findings": "mono 24%" });
    // A summary as an earlier version stored it: clipped JSON text, left as it is in storage.
    const legacy = `{"key findings":"${"m".repeat(380)}…`;
    await runInDurableObject(env.PLAN.getByName(`${orgId}:${planId}`), (_instance, state) => {
      state.storage.sql.exec("UPDATE steps SET data = json_set(data, '$.resultSummary', ?) WHERE json_extract(data, '$.stepOrder') = 2", legacy);
    });
    const expected = [{ text: "Mono modules hold 24% of production" }, { text: legacy }];

    const overMcp = (await ok(apiKey, "get_plan_status", { planId })) as { completedSteps: { resultSummary: unknown }[] };
    expect(overMcp.completedSteps.map((step) => step.resultSummary)).toEqual(expected);
    const overRest = (await (await rest(apiKey, `/plans/${planId}`)).json()) as { completedSteps: { resultSummary: unknown }[] };
    expect(overRest.completedSteps.map((step) => step.resultSummary)).toEqual(expected);
    const context = (await (await rest(apiKey, `/plans/${planId}/context`)).json()) as { steps: { resultSummary: unknown }[] };
    expect(context.steps.map((step) => step.resultSummary)).toEqual([...expected, null]);
    const next = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string } };
    const stepContext = (await ok(apiKey, "get_step_context", { planId, stepId: next.step.stepId })) as { earlierSteps: { resultSummary: unknown }[] };
    expect(stepContext.earlierSteps.map((step) => step.resultSummary)).toEqual(expected.slice(1));
  });
});
