import { describe, expect, it } from "vitest";
import { DEFAULT_SESSION_CONFIG, sessionConfig } from "./config";
import type { SearchSession } from "./model";
import { appendStep, startSession } from "./steps";
import { sessionView, VIEW_LIMITS } from "./view";

function sessionOf(count: number, text = "findings"): SearchSession {
  let s = startSession({ sessionId: "srch_x", orgId: "org", createdBy: "usr" }, { stepNumber: 1, nextStepNeeded: true, searchStep: text, researchGoal: "goal" }, 0, DEFAULT_SESSION_CONFIG);
  for (let n = 2; n <= count; n++) {
    s = appendStep(s, { sessionId: "srch_x", stepNumber: n, nextStepNeeded: true, searchStep: text, sources: [{ url: `https://s.example/${n}`, title: `Source ${n}` }] }, n, DEFAULT_SESSION_CONFIG).session;
  }
  return s;
}

describe("session views", () => {
  it("auto mode is full up to 8 steps and summary beyond", () => {
    const eight = sessionView(sessionOf(8), undefined).view;
    expect(eight.responseMode).toBe("full");
    expect(eight.steps).toHaveLength(8);
    expect(eight.lastSteps).toBeUndefined();
    const nine = sessionView(sessionOf(9), undefined).view;
    expect(nine.responseMode).toBe("summary");
    expect(nine.steps).toBeUndefined();
    expect(nine.lastSteps?.map((s) => s.stepNumber)).toEqual([7, 8, 9]);
    expect(nine).toMatchObject({ stepIndex: 9, currentStep: { stepNumber: 9 }, trust: "untrusted-external-content" });
    expect(nine.summary).toBe("9 steps, 8 sources, 0 open gaps; in progress.");
    // Expired (read-only after a period without steps): never "in progress".
    const expired = sessionView({ ...sessionOf(9), expiredAt: Date.UTC(2026, 10, 28, 12) }, undefined).view;
    expect(expired.summary).toBe("9 steps, 8 sources, 0 open gaps; expired 2026-11-28T12:00:00.000Z (read-only).");
  });

  it("bounds a forced full view and says what was left out", () => {
    const { view, notes } = sessionView(sessionOf(40, "x".repeat(4000)), "full", Number.POSITIVE_INFINITY);
    expect(view.steps).toHaveLength(VIEW_LIMITS.fullSteps);
    expect(view.steps?.[0]?.stepNumber).toBe(16);
    expect(view.sources).toHaveLength(VIEW_LIMITS.fullSources);
    expect(view.currentStep?.searchStep).toMatch(/… \[truncated: 4000 characters in full\]$/);
    expect(notes).toEqual(["Showing the last 25 of 40 steps.", "Showing the latest 30 of 39 sources."]);
  });

  it("tightens its bounds until the view fits its character budget, and says so", () => {
    const long = sessionOf(40, "word ".repeat(800));
    const { view, notes } = sessionView(long, "full");
    expect(JSON.stringify(view).length).toBeLessThanOrEqual(VIEW_LIMITS.budgetChars);
    expect(view.steps?.length).toBeLessThan(VIEW_LIMITS.fullSteps);
    expect(view.steps?.at(-1)?.stepNumber).toBe(40);
    expect(notes.at(-1)).toMatch(/^Long texts are clipped to \d+ characters to fit the response\.$/);
    // A short session is shown at the first tier, unclipped.
    expect(sessionView(sessionOf(3), "full").notes).toEqual([]);
  });

  it("prefers the caller's own running summary", () => {
    const s = appendStep(sessionOf(1), { sessionId: "srch_x", stepNumber: 2, nextStepNeeded: false, searchStep: "done", sessionSummary: "Chose LanceDB." }, 5, DEFAULT_SESSION_CONFIG).session;
    expect(sessionView(s, "summary").view).toMatchObject({ summary: "Chose LanceDB.", isComplete: true, completedAt: new Date(5).toISOString() });
  });
});

describe("session settings", () => {
  it("reads the variables, keeps defaults for junk and clamps out-of-range values", () => {
    expect(sessionConfig({})).toEqual(DEFAULT_SESSION_CONFIG);
    expect(sessionConfig({ SEARCH_SESSION_TTL_MINUTES: "30", SEARCH_SESSION_MAX_ACTIVE: "5", SEARCH_SESSION_MAX_STEPS: "12" })).toEqual({
      ttlMinutes: 30,
      maxActivePerOrg: 5,
      maxActivePerMember: 5,
      maxStepsPerSession: 12,
    });
    expect(sessionConfig({ SEARCH_SESSION_MAX_ACTIVE: "8", SEARCH_SESSION_MAX_ACTIVE_PER_MEMBER: "3" }).maxActivePerMember).toBe(3);
    expect(sessionConfig({ SEARCH_SESSION_TTL_MINUTES: "four hours", SEARCH_SESSION_MAX_ACTIVE: "0", SEARCH_SESSION_MAX_STEPS: "99999" })).toEqual({
      ttlMinutes: 240,
      maxActivePerOrg: 1,
      maxActivePerMember: 1,
      maxStepsPerSession: 1000,
    });
  });
});
