import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ok } from "../../test/support/plans";
import { errorOf, sessionStub, startSession, step } from "../../test/support/search-sessions";
import { seedTenant } from "../../test/support/worker";
import type { SearchSessionObject } from "./search-session-object";

const MINUTE = 60_000;

const alarmOf = (orgId: string, sessionId: string) => runInDurableObject(sessionStub(orgId, sessionId), (_i: SearchSessionObject, state) => state.storage.getAlarm());

/** Moves the session's expiry, as if its last step had been that long ago. */
const expireAt = (orgId: string, sessionId: string, at: number) =>
  runInDurableObject(sessionStub(orgId, sessionId), (_i: SearchSessionObject, state) => {
    state.storage.sql.exec("UPDATE header SET data = json_set(data, '$.expiresAt', ?)", at);
  });

const storedRows = (orgId: string, sessionId: string) =>
  runInDurableObject(sessionStub(orgId, sessionId), (_i: SearchSessionObject, state) => ({
    header: state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM header").one().n,
    steps: state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM steps").one().n,
  }));

const indexStatus = async (sessionId: string) =>
  (await env.DB.prepare("SELECT status FROM search_sessions WHERE session_id = ?").bind(sessionId).first<{ status: string }>())?.status;

describe("SearchSessionObject", () => {
  it("arms its alarm at the inactivity limit (240 minutes from wrangler.toml) and every step moves it", async () => {
    const { apiKey, orgId } = await seedTenant();
    const before = Date.now();
    const sessionId = await startSession(apiKey);
    const first = (await alarmOf(orgId, sessionId)) ?? 0;
    expect(first).toBeGreaterThanOrEqual(before + 240 * MINUTE);
    expect(first).toBeLessThanOrEqual(Date.now() + 240 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await ok(apiKey, "sequential_search", { sessionId, stepNumber: 2, searchStep: "s", nextStepNeeded: true });
    expect(await alarmOf(orgId, sessionId)).toBeGreaterThan(first);
  });

  it("an alarm before the expiry only re-arms; at the expiry the session closes to steps but stays readable", async () => {
    const { apiKey, orgId } = await seedTenant();
    const sessionId = await startSession(apiKey);
    await ok(apiKey, "sequential_search", { sessionId, stepNumber: 2, searchStep: "s", nextStepNeeded: true });
    const stub = sessionStub(orgId, sessionId);

    // The alarm fired early (a step moved the expiry after it was set): nothing is lost.
    const later = Date.now() + 30 * MINUTE;
    await expireAt(orgId, sessionId, later);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await alarmOf(orgId, sessionId)).toBe(later);
    expect(await storedRows(orgId, sessionId)).toEqual({ header: 1, steps: 2 });

    await expireAt(orgId, sessionId, Date.now() - 1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // Nothing the user recorded is lost: the steps stay, read-only.
    expect(await storedRows(orgId, sessionId)).toEqual({ header: 1, steps: 2 });
    expect(await alarmOf(orgId, sessionId)).toBeNull();
    expect(await indexStatus(sessionId)).toBe("expired");

    const read = await ok(apiKey, "get_research_session", { sessionId });
    expect(read).toMatchObject({ sessionId, stepIndex: 2, isComplete: false });
    expect(read.warning).toMatch(/^This session expired at .*: it is read-only; start a new session to continue\./);
    const next = await step(apiKey, { sessionId, stepNumber: 3 });
    expect(errorOf(next).code).toBe("invalid_transition");
    expect(errorOf(next).message).toMatch(/expired at .* stays readable with get_research_session\. Start a new session with stepNumber 1/);
    expect(await storedRows(orgId, sessionId)).toEqual({ header: 1, steps: 2 });
    // A second alarm (retried delivery) changes nothing.
    await runDurableObjectAlarm(stub);
    expect(await storedRows(orgId, sessionId)).toEqual({ header: 1, steps: 2 });
  });

  it("expires a session whose time has passed even when the alarm has not run yet", async () => {
    const { apiKey, orgId } = await seedTenant();
    const sessionId = await startSession(apiKey);
    await expireAt(orgId, sessionId, Date.now() - 1);
    const next = await step(apiKey, { sessionId, stepNumber: 2 });
    expect(errorOf(next)).toMatchObject({ code: "invalid_transition" });
    expect(errorOf(next).message).toContain("expired");
    expect(await storedRows(orgId, sessionId)).toEqual({ header: 1, steps: 1 });
    expect(await indexStatus(sessionId)).toBe("expired");
    expect(await alarmOf(orgId, sessionId)).toBeNull();
  });

  it("survives eviction: a restarted object answers and continues exactly as before", async () => {
    const { apiKey, orgId } = await seedTenant();
    const sessionId = await startSession(apiKey, { knowledgeGap: "Battery impact?", sources: [{ url: "https://a.example", title: "A" }] });
    await ok(apiKey, "sequential_search", { sessionId, stepNumber: 2, searchStep: "Second", nextStepNeeded: true, branchId: "alt", branchFromStep: 1 });
    const before = await ok(apiKey, "get_research_session", { sessionId });
    await evictDurableObject(sessionStub(orgId, sessionId));
    expect(await ok(apiKey, "get_research_session", { sessionId })).toEqual(before);
    const third = await ok(apiKey, "sequential_search", { sessionId, stepNumber: 3, searchStep: "Third", nextStepNeeded: true, branchId: "alt" });
    expect(third).toMatchObject({ stepIndex: 3, currentStep: { branchId: "alt" }, sources: [{ ref: "S1" }], gaps: [{ gapId: "G1", status: "open" }] });
  });
});
