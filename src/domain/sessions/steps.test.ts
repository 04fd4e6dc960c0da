import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { DEFAULT_SESSION_CONFIG } from "./config";
import type { SearchSession, StepInput } from "./model";
import { appendStep, startSession } from "./steps";

const identity = { sessionId: "srch_test", orgId: "org_a", createdBy: "usr_a" };
const T0 = Date.UTC(2026, 0, 1);

const step = (stepNumber: number, extra: Partial<StepInput> = {}): StepInput => ({
  sessionId: identity.sessionId,
  stepNumber,
  searchStep: `Step ${stepNumber} findings`,
  nextStepNeeded: true,
  ...extra,
});

function sessionWith(count: number): SearchSession {
  let session = startSession(identity, { ...step(1), sessionId: undefined, researchGoal: "Edge vector search" }, T0, DEFAULT_SESSION_CONFIG);
  for (let n = 2; n <= count; n++) session = appendStep(session, step(n), T0 + n * 1000, DEFAULT_SESSION_CONFIG).session;
  return session;
}

function errorOf(fn: () => unknown): CairnError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CairnError) return error;
    throw error;
  }
  throw new Error("expected a CairnError");
}

describe("recording steps", () => {
  it("starts at step 1, keeps the goal, and sets the expiry from the TTL", () => {
    const session = sessionWith(1);
    expect(session.steps.map((s) => s.stepNumber)).toEqual([1]);
    expect(session.researchGoal).toBe("Edge vector search");
    expect(session.expiresAt - session.lastActivityAt).toBe(240 * 60_000);
    expect(session.completedAt).toBeNull();
  });

  it("refuses a new session that does not start at 1", () => {
    const error = errorOf(() => startSession(identity, { ...step(2), sessionId: undefined }, T0, DEFAULT_SESSION_CONFIG));
    expect(error.code).toBe("validation");
    expect(error.message).toMatch(/starts at stepNumber 1/);
  });

  it("refuses out-of-order step numbers, naming the expected one", () => {
    const session = sessionWith(2);
    for (const wrong of [1, 2, 4, 9]) {
      const error = errorOf(() => appendStep(session, step(wrong, { searchStep: "different" }), T0, DEFAULT_SESSION_CONFIG));
      expect(error.code).toBe("validation");
      expect(error.message).toContain("expected stepNumber 3");
      expect(error.details.issues?.[0]?.path).toBe("stepNumber");
    }
  });

  it("refreshes the expiry on every step and keeps the goal of step 1", () => {
    const session = sessionWith(1);
    const later = appendStep(session, step(2, { researchGoal: "Something else" }), T0 + 3_600_000, DEFAULT_SESSION_CONFIG).session;
    expect(later.expiresAt).toBe(T0 + 3_600_000 + 240 * 60_000);
    expect(later.researchGoal).toBe("Edge vector search");
  });

  it("requires revisesStep with isRevision, and a revised step that exists", () => {
    const session = sessionWith(2);
    expect(errorOf(() => appendStep(session, step(3, { isRevision: true }), T0, DEFAULT_SESSION_CONFIG)).details.issues?.[0]?.path).toBe("revisesStep");
    const missing = errorOf(() => appendStep(session, step(3, { isRevision: true, revisesStep: 5 }), T0, DEFAULT_SESSION_CONFIG));
    expect(missing.message).toBe("revisesStep 5 does not exist: the session has steps 1–2.");
    expect(errorOf(() => appendStep(session, step(3, { isRevision: false, revisesStep: 1 }), T0, DEFAULT_SESSION_CONFIG)).details.issues?.[0]?.path).toBe("isRevision");
    const revised = appendStep(session, step(3, { isRevision: true, revisesStep: 1 }), T0, DEFAULT_SESSION_CONFIG).session;
    expect(revised.steps[2]).toMatchObject({ isRevision: true, revisesStep: 1 });
  });

  it("requires branchFromStep to exist, names unnamed branches, and keeps a branch's origin", () => {
    const session = sessionWith(2);
    expect(errorOf(() => appendStep(session, step(3, { branchFromStep: 3 }), T0, DEFAULT_SESSION_CONFIG)).message).toBe(
      "branchFromStep 3 does not exist: the session has steps 1–2.",
    );
    const unnamed = appendStep(session, step(3, { branchFromStep: 1 }), T0, DEFAULT_SESSION_CONFIG).session;
    expect(unnamed.steps[2]).toMatchObject({ branchId: "branch-3", branchFromStep: 1 });
    const named = appendStep(session, step(3, { branchId: "business", branchFromStep: 2 }), T0, DEFAULT_SESSION_CONFIG).session;
    const moved = errorOf(() => appendStep(named, step(4, { branchId: "business", branchFromStep: 1 }), T0, DEFAULT_SESSION_CONFIG));
    expect(moved.message).toContain("started from step 2");
    expect(appendStep(named, step(4, { branchId: "business" }), T0, DEFAULT_SESSION_CONFIG).session.steps[3]?.branchId).toBe("business");
  });

  it("completes on nextStepNeeded=false and then refuses further steps", () => {
    const done = appendStep(sessionWith(1), step(2, { nextStepNeeded: false }), T0 + 5, DEFAULT_SESSION_CONFIG).session;
    expect(done.completedAt).toBe(T0 + 5);
    const error = errorOf(() => appendStep(done, step(3), T0 + 6, DEFAULT_SESSION_CONFIG));
    expect(error.code).toBe("invalid_transition");
    expect(error.message).toMatch(/complete/);
  });

  it("treats the last step sent again as a harmless retry, even after completion", () => {
    const done = appendStep(sessionWith(1), step(2, { nextStepNeeded: false }), T0 + 5, DEFAULT_SESSION_CONFIG).session;
    const again = appendStep(done, step(2, { nextStepNeeded: false }), T0 + 9, DEFAULT_SESSION_CONFIG);
    expect(again.replayed).toBe(true);
    expect(again.session).toBe(done);
    expect(errorOf(() => appendStep(done, step(2, { searchStep: "changed" }), T0 + 9, DEFAULT_SESSION_CONFIG)).code).toBe("invalid_transition");
  });

  it("refuses a step past the per-session limit", () => {
    const config = { ...DEFAULT_SESSION_CONFIG, maxStepsPerSession: 3 };
    let session = startSession(identity, { ...step(1), sessionId: undefined }, T0, config);
    session = appendStep(session, step(2), T0, config).session;
    session = appendStep(session, step(3), T0, config).session;
    const error = errorOf(() => appendStep(session, step(4), T0, config));
    expect(error.code).toBe("invalid_transition");
    expect(error.message).toContain("limit of 3 steps");
  });
});
