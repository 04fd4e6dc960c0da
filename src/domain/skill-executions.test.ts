import { describe, expect, it } from "vitest";
import { CairnError } from "./errors";
import { applyExecutionUpdate, capOriginalQuery, ORIGINAL_QUERY_MAX_CHARS, type SkillExecution } from "./skill-executions";

const base: SkillExecution = {
  executionId: "exec_1",
  orgId: "org_1",
  userId: "usr_1",
  clientId: null,
  skillName: "research",
  status: "started",
  sessionId: null,
  planId: null,
  metadata: { topic: "t", delegatedTo: "scan" },
  errorMessage: null,
  closedReason: null,
  version: 1,
  createdAt: 1000,
  updatedAt: 1000,
  completedAt: null,
};

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof CairnError ? error.code : "not a CairnError";
  }
  return "no error";
};

describe("applyExecutionUpdate", () => {
  it.each([
    ["started", "executing"],
    ["started", "completed"],
    ["started", "failed"],
    ["executing", "completed"],
    ["executing", "failed"],
    ["executing", "executing"],
    ["completed", "completed"],
  ] as const)("allows %s → %s", (from, to) => {
    const { next } = applyExecutionUpdate({ ...base, status: from, errorMessage: "e" }, { status: to }, 2000);
    expect(next.status).toBe(to);
    expect(next.version).toBe(2);
    expect(next.updatedAt).toBe(2000);
  });

  it.each([
    ["completed", "executing"],
    ["completed", "failed"],
    ["failed", "completed"],
    ["failed", "executing"],
    ["executing", "started"],
    ["completed", "started"],
  ] as const)("refuses %s → %s as an invalid transition", (from, to) => {
    expect(codeOf(() => applyExecutionUpdate({ ...base, status: from, errorMessage: "e" }, { status: to }, 2000))).toBe("invalid_transition");
  });

  it("requires an errorMessage to fail, unless one is already stored", () => {
    expect(codeOf(() => applyExecutionUpdate(base, { status: "failed" }, 2))).toBe("validation");
    expect(applyExecutionUpdate({ ...base, errorMessage: "earlier" }, { status: "failed" }, 2).next.errorMessage).toBe("earlier");
  });

  describe("closing after the user chose existing research (priorResearchCheck use_existing)", () => {
    const usedExisting = { ...base, metadata: { ...base.metadata, priorResearchCheck: { decision: "use_existing", artifactIds: ["art_1"] } } };
    const issuePathOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof CairnError ? error.details.issues?.map((issue) => issue.path) : [];
      }
      return [];
    };

    it("requires a closedReason to complete, naming the field", () => {
      expect(codeOf(() => applyExecutionUpdate(usedExisting, { status: "completed" }, 2))).toBe("validation");
      expect(issuePathOf(() => applyExecutionUpdate(usedExisting, { status: "completed" }, 2))).toEqual(["closedReason"]);
      expect(codeOf(() => applyExecutionUpdate({ ...usedExisting, status: "executing" }, { status: "completed", closedReason: " " }, 2))).toBe("validation");
      // The decision given in the closing update itself counts too.
      const closing = { status: "completed" as const, metadata: { priorResearchCheck: { decision: "use_existing" } } };
      expect(codeOf(() => applyExecutionUpdate(base, closing, 2))).toBe("validation");
      expect(applyExecutionUpdate(usedExisting, { status: "completed", closedReason: "Used existing research: art_1" }, 2).next.closedReason).toBe(
        "Used existing research: art_1",
      );
    });

    it("asks nowhere else: other decisions, other statuses, an execution already closed", () => {
      for (const decision of ["none_found", "refresh", "unique"]) {
        const other = { ...base, metadata: { priorResearchCheck: { decision } } };
        expect(applyExecutionUpdate(other, { status: "completed" }, 2).next.status).toBe("completed");
      }
      expect(applyExecutionUpdate(base, { status: "completed" }, 2).next.status).toBe("completed");
      expect(applyExecutionUpdate(usedExisting, { status: "executing" }, 2).next.status).toBe("executing");
      expect(applyExecutionUpdate(usedExisting, { status: "failed", errorMessage: "gave up" }, 2).next.status).toBe("failed");
      const closedBefore = { ...usedExisting, status: "completed" as const, completedAt: 1 };
      expect(applyExecutionUpdate(closedBefore, { status: "completed", metadata: { late: true } }, 2).next.metadata.late).toBe(true);
    });
  });

  it("stamps completedAt once, when the execution first closes", () => {
    const closed = applyExecutionUpdate(base, { status: "completed" }, 5000).next;
    expect(closed.completedAt).toBe(5000);
    expect(applyExecutionUpdate(closed, { status: "completed", metadata: { late: true } }, 9000).next.completedAt).toBe(5000);
  });

  it("merges metadata shallowly and keeps what the patch does not name", () => {
    const { next } = applyExecutionUpdate(base, { status: "executing", metadata: { topic: "new", extra: [1] } }, 2);
    expect(next.metadata).toEqual({ topic: "new", delegatedTo: "scan", extra: [1] });
  });

  it("refuses a merge that grows metadata past 64 KiB", () => {
    expect(codeOf(() => applyExecutionUpdate(base, { status: "executing", metadata: { big: "x".repeat(70_000) } }, 2))).toBe("payload_too_large");
  });
});

describe("capOriginalQuery", () => {
  it("leaves short queries and other metadata alone", () => {
    const metadata = { originalQuery: "short", topic: "t" };
    expect(capOriginalQuery(metadata)).toEqual({ metadata, truncated: false });
    expect(capOriginalQuery({ topic: "t" }).truncated).toBe(false);
  });

  it("cuts a long query at exactly 5000 characters", () => {
    const { metadata, truncated } = capOriginalQuery({ originalQuery: "a".repeat(ORIGINAL_QUERY_MAX_CHARS + 1) });
    expect(truncated).toBe(true);
    expect((metadata.originalQuery as string).length).toBe(ORIGINAL_QUERY_MAX_CHARS);
    expect(capOriginalQuery({ originalQuery: "a".repeat(ORIGINAL_QUERY_MAX_CHARS) }).truncated).toBe(false);
  });
});
