import { describe, expect, it } from "vitest";
import { createPlan, ok, REPORT } from "../../test/support/plans";
import { callTool, rest, seedTenant } from "../../test/support/worker";

/** issue 4: a default response stays near 22,000 characters of JSON (≤ 8,000 tokens), whatever the plan holds. */
const PAGE_MAX_CHARS = 22_000;

/** Long, distinct instructions per step, so a cut or a mix-up shows. */
const longSteps = (count: number, stepType = "search") =>
  Array.from({ length: count }, (_, i) => ({ stepType, instructions: `Step ${i + 1}: ${"abcdefghij".repeat(799)}`.slice(0, 8000) }));

async function bigPlan(apiKey: string, count: number) {
  return createPlan(apiKey, {
    name: "[Deep] Bounded",
    steps: longSteps(count),
    planDesignRationale: "R".repeat(8000),
    outputFormattingNotes: "N".repeat(4000),
  });
}

/** Pulls the next step and submits it with long formatting notes and a result of about `resultChars`. */
async function submitNext(apiKey: string, planId: string, resultChars = 200) {
  const next = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string; stepOrder: number }; claimId: string };
  await ok(apiKey, "submit_step_result", {
    planId,
    stepId: next.step.stepId,
    claimId: next.claimId,
    result: { step: next.step.stepOrder, text: "x".repeat(resultChars) },
    confidence: 0.8,
    outputFormattingNotes: "F".repeat(4000),
    stepExecutionReport: REPORT,
  });
  return next.step;
}

describe("get_research_context stays bounded", () => {
  it("clips summaries (marked truncated) and pages every step exactly once by cursor; detail full has the text whole", async () => {
    const { apiKey } = await seedTenant();
    const { planId, steps } = await bigPlan(apiKey, 40);
    const pages: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page = await ok(apiKey, "get_research_context", { planId, ...(cursor ? { cursor } : {}) });
      expect(JSON.stringify(page).length).toBeLessThan(PAGE_MAX_CHARS);
      pages.push(page);
      cursor = page.nextCursor as string | null;
    } while (cursor);
    expect(pages.length).toBeGreaterThan(1);
    const listed = pages.flatMap((page) => page.steps as { stepId: string; instructions: string }[]);
    expect(listed.map((step) => step.stepId)).toEqual(steps.map((step) => step.stepId));
    expect(listed[0]?.instructions).toMatch(/^Step 1: abcdefghij.*…$/);
    expect(listed[0]?.instructions).toHaveLength(300);
    expect(pages[0]).toMatchObject({ truncated: true, status: { totalSteps: 40, progress: 0 }, plan: { planDesignRationale: `${"R".repeat(999)}…` } });
    expect(pages[0]?.status).not.toHaveProperty("pendingSteps");

    const full = await ok(apiKey, "get_research_context", { planId, detail: "full" });
    expect(full).toMatchObject({ truncated: false, plan: { planDesignRationale: "R".repeat(8000), outputFormattingNotes: "N".repeat(4000) } });
    const fullSteps = full.steps as { instructions: string }[];
    expect(fullSteps[0]?.instructions).toBe(longSteps(1)[0]?.instructions);
    expect(full.nextCursor).toBe(String(fullSteps.length));
  });

  it("shows a small plan whole on one page, untruncated, the same over REST", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const viaMcp = await ok(apiKey, "get_research_context", { planId });
    expect(viaMcp).toMatchObject({ truncated: false, nextCursor: null });
    expect((viaMcp.steps as unknown[]).length).toBe(3);
    const viaRest = await (await rest(apiKey, `/plans/${planId}/context`)).json();
    expect(viaRest).toEqual({ ...viaMcp, status: { ...(viaMcp.status as object), updatedAt: expect.any(String) } });
  });
});

describe("get_step_context stays bounded", () => {
  it("shows the step it builds on whole (clipped and marked), one line for each other earlier step, and with the cursor only what changed", async () => {
    const { apiKey } = await seedTenant();
    const { planId, steps } = await bigPlan(apiKey, 22);
    const done: { stepId: string; stepOrder: number }[] = [];
    for (let i = 0; i < 20; i++) done.push(await submitNext(apiKey, planId));
    const first = { step: { stepId: steps[20]?.stepId ?? "" } };
    const before = await ok(apiKey, "get_step_context", { planId, stepId: first.step.stepId });
    expect(before.otherSteps).toHaveLength(19);
    await ok(apiKey, "modify_plan", { planId, action: "skip", stepId: first.step.stepId, reason: "covered", modificationRationale: "covered by step 20" });
    const stepTwentyOne = done.length + 1;
    for (let i = 0; i < 7; i++) {
      await ok(apiKey, "store_research", { artifactType: "finding", title: `Finding ${i} ${"t".repeat(300)}`.slice(0, 300), content: {}, contentText: "text", planId, stepId: done[19]?.stepId });
    }
    const next = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string; stepOrder: number } };
    expect(next.step.stepOrder).toBe(22);
    const context = await ok(apiKey, "get_step_context", { planId, stepId: next.step.stepId });
    expect(JSON.stringify(context).length).toBeLessThan(PAGE_MAX_CHARS);
    // The step before (skipped: its note stands in for a result) is shown; every other earlier step is one line.
    const earlier = context.earlierSteps as { stepOrder: number; status: string; resultSummary: unknown }[];
    expect(earlier).toEqual([expect.objectContaining({ stepOrder: stepTwentyOne, status: "skipped", resultSummary: { note: "covered" } })]);
    expect(context.otherSteps).toEqual(Array.from({ length: 20 }, (_, i) => `${i + 1} search completed 0.8`));
    expect(context).not.toHaveProperty("earlierStepsOmitted");
    // What get_next_step just delivered is not sent again; the last step gets the plan's formatting notes.
    expect(context.step).toEqual({ stepOrder: 22, stepType: "search" });
    expect(context).not.toHaveProperty("researchQuestion");
    expect(context.planOutputFormattingNotes).toBe(`${"N".repeat(999)}…`);

    // With the cursor of the earlier answer: only what changed since (step 21 was skipped after it).
    const changed = await ok(apiKey, "get_step_context", { planId, stepId: next.step.stepId, since: before.cursor });
    expect((changed.earlierSteps as { stepOrder: number }[]).map((step) => step.stepOrder)).toEqual([stepTwentyOne]);
    expect(changed).not.toHaveProperty("otherSteps");
    const bad = await callTool(apiKey, "get_step_context", { planId, stepId: next.step.stepId, since: "yesterday" });
    expect(bad.body).toMatchObject({ error: { code: "validation", issues: [{ path: "since" }] } });

    // A built-on step with long notes and many artifacts is clipped and marked truncated.
    const twenty = await ok(apiKey, "get_step_context", { planId, stepId: done[19]?.stepId ?? "", detail: "full" });
    expect((twenty.step as { instructions: string }).instructions).toHaveLength(500);
    const forTwentyOne = await ok(apiKey, "get_step_context", { planId, stepId: first.step.stepId });
    const row = (forTwentyOne.earlierSteps as { stepOrder: number; outputFormattingNotes: string; artifacts: { title: string }[]; truncated: boolean; resultSummary: unknown }[])[0];
    expect(row).toMatchObject({ stepOrder: 20, truncated: true, outputFormattingNotes: `${"F".repeat(299)}…` });
    expect(row?.artifacts).toHaveLength(5);
    expect(row?.artifacts[0]?.title).toMatch(/^Finding 6 t+…$/);
    expect(row?.artifacts[0]?.title).toHaveLength(120);
    // The summary is the result bounded, still an object.
    expect(row?.resultSummary).toEqual({ step: 20, text: `${"x".repeat(159)}…` });
  });

  it("with detail full, adds results latest first while they fit and marks the rows whose result did not", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await bigPlan(apiKey, 6);
    for (let i = 0; i < 5; i++) await submitNext(apiKey, planId, 15_000);
    const next = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string } };
    const context = await ok(apiKey, "get_step_context", { planId, stepId: next.step.stepId, detail: "full" });
    const earlier = context.earlierSteps as { stepOrder: number; result?: { step: number }; truncated: boolean }[];
    expect(earlier.map((step) => step.stepOrder)).toEqual([1, 2, 3, 4, 5]);
    expect(earlier.map((step) => step.result?.step ?? null)).toEqual([null, null, null, 4, 5]);
    expect(earlier.slice(0, 3).every((step) => step.truncated)).toBe(true);
    expect(context).not.toHaveProperty("earlierStepsOmitted");
  });
});

describe("get_plan_history stays bounded", () => {
  it("lists versions clipped and marked, pages versions and audit by one cursor, and reads one version whole", async () => {
    const { apiKey } = await seedTenant();
    const { planId, steps } = await bigPlan(apiKey, 24);
    for (const step of steps.slice(-20)) {
      await ok(apiKey, "modify_plan", { planId, action: "update", stepId: step.stepId, instructions: "I".repeat(8000), modificationRationale: "M".repeat(4000) });
    }
    for (let i = 0; i < 4; i++) await submitNext(apiKey, planId);

    const versions: { version: number; rationale: string; after: { instructions: string }[]; truncated: boolean }[] = [];
    const audit: { action: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await ok(apiKey, "get_plan_history", { planId, ...(cursor ? { cursor } : {}) });
      expect(JSON.stringify(page).length).toBeLessThan(PAGE_MAX_CHARS);
      versions.push(...(page.versions as typeof versions));
      audit.push(...(page.audit as typeof audit));
      cursor = page.nextCursor as string | null;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(versions.map((version) => version.version)).toEqual(Array.from({ length: 21 }, (_, i) => 21 - i));
    expect(versions[0]).toMatchObject({ rationale: `${"M".repeat(299)}…`, truncated: true });
    expect(versions[20]?.after).toHaveLength(10);
    expect(versions[20]?.after[0]?.instructions).toMatch(/^Step 1: .*…$/);
    // Every audit entry once, newest first, down to the plan's creation.
    expect(audit.at(-1)?.action).toBe("plan.created");
    expect(audit.filter((entry) => entry.action === "step.completed")).toHaveLength(4);
    expect(audit.filter((entry) => entry.action === "plan.modified.update")).toHaveLength(20);

    const snapshots: { stepId: string; instructions: string }[] = [];
    let rationale = "";
    cursor = null;
    do {
      const page = await ok(apiKey, "get_plan_history", { planId, version: 1, ...(cursor ? { cursor } : {}) });
      expect(JSON.stringify(page).length).toBeLessThan(PAGE_MAX_CHARS);
      const [version] = page.versions as { rationale: string; before: unknown[]; after: { stepId: string; instructions: string }[] }[];
      rationale = version?.rationale ?? "";
      snapshots.push(...(version?.after ?? []));
      cursor = page.nextCursor as string | null;
    } while (cursor);
    expect(rationale).toBe("R".repeat(8000));
    expect(snapshots.map((snapshot) => snapshot.stepId)).toEqual(steps.map((step) => step.stepId));
    expect(snapshots.map((snapshot) => snapshot.instructions)).toEqual(longSteps(24).map((step) => step.instructions));

    const missing = await callTool(apiKey, "get_plan_history", { planId, version: 99 });
    expect(missing.body).toMatchObject({ error: { code: "validation", issues: [{ path: "version" }] } });
  });
});
