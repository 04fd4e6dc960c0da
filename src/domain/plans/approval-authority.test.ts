import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { assertApprovedVersion, assertApprover, assertNotAwaitingApproval, assertPersonDecides, effectiveApproval, raisesBudget } from "./approval-authority";
import { createPlan } from "./machine";
import type { PlanState } from "./model";

const URL = "https://cairn.test/dashboard/plans/pln_1";

const thrown = (fn: () => void): CairnError | null => {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof CairnError) return error;
    throw error;
  }
};

const plan = (approval: "required" | "optional"): PlanState => {
  let n = 0;
  return createPlan(
    {
      planId: "pln_1",
      orgId: "org_1",
      name: "[Scan] Heat pumps",
      researchQuestion: "Which heat pump?",
      steps: [{ stepType: "search", instructions: "search" }],
      branchingConditions: [],
      planDesignRationale: "r",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
      approval,
    },
    { userId: "usr_1", clientId: "cli_1" },
    0,
    (prefix) => `${prefix}_${++n}`,
  ).state;
};

describe("who approves a plan", () => {
  it("an org that requires approval is not lifted by the plan's optional; an optional org leaves it to the plan", () => {
    expect(effectiveApproval("required", "optional")).toBe("required");
    expect(effectiveApproval("required", undefined)).toBe("required");
    expect(effectiveApproval("optional", "required")).toBe("required");
    expect(effectiveApproval("optional", undefined)).toBe("optional");
  });

  it("only a person decides: the assistant (or no authority at all) is refused, naming the approval page", () => {
    expect(thrown(() => assertPersonDecides({ approver: "person", approvalUrl: URL }, "approve_plan"))).toBeNull();
    const refused = thrown(() => assertPersonDecides({ approver: "assistant", approvalUrl: URL }, "approve_plan"));
    expect(refused).toMatchObject({ code: "forbidden", details: { url: URL } });
    expect(refused?.message).toContain(URL);
    expect(refused?.message).toContain("plans:approve");
    expect(thrown(() => assertPersonDecides(undefined, "approve_plan"))?.code).toBe("forbidden");
  });

  it("an org's approver group approves its plans: anyone else is refused naming the group; no group, anyone who may", () => {
    const group = [{ userId: "usr_2", email: "ana@example.com" }];
    expect(thrown(() => assertApprover({ approver: "person", approvalUrl: URL, userId: "usr_2", approvers: group }))).toBeNull();
    expect(thrown(() => assertApprover({ approver: "person", approvalUrl: URL, userId: "usr_1", approvers: [] }))).toBeNull();
    expect(thrown(() => assertApprover({ approver: "person", approvalUrl: URL, userId: "usr_1" }))).toBeNull();
    const refused = thrown(() => assertApprover({ approver: "person", approvalUrl: URL, userId: "usr_1", approvers: group }));
    expect(refused).toMatchObject({ code: "forbidden", details: { url: URL } });
    expect(refused?.message).toContain("ana@example.com");
  });

  it("an approval names the version it approves: missing is invalid, another version a conflict", () => {
    const state = plan("required");
    expect(thrown(() => assertApprovedVersion(state, undefined))?.code).toBe("validation");
    expect(thrown(() => assertApprovedVersion(state, 2))?.code).toBe("conflict");
    expect(thrown(() => assertApprovedVersion(state, 1))).toBeNull();
  });

  it("a waiting approval refuses changes, naming the review; a plan without one does not", () => {
    const waiting = plan("required");
    const refused = thrown(() => assertNotAwaitingApproval(waiting));
    expect(refused?.code).toBe("conflict");
    expect(refused?.message).toContain(waiting.plan.reviews?.[0]?.reviewId ?? "?");
    expect(thrown(() => assertNotAwaitingApproval(plan("optional")))).toBeNull();
  });

  it("a budget is raised by a larger limit, a new limit or a later deadline; not by a lower or unchanged one", () => {
    expect(raisesBudget({ maxSteps: 5 }, { maxSteps: 6 })).toBe(true);
    expect(raisesBudget({ maxSteps: 5 }, { maxSteps: 5, maxTokens: 100 })).toBe(true);
    expect(raisesBudget(null, { maxSteps: 1 })).toBe(true);
    expect(raisesBudget({ deadline: 1_000 }, { deadline: 2_000 })).toBe(true);
    expect(raisesBudget({ maxSteps: 5, deadline: 2_000 }, { maxSteps: 4, deadline: 1_000 })).toBe(false);
    expect(raisesBudget({ maxSteps: 5 }, { maxSteps: 5 })).toBe(false);
  });
});
