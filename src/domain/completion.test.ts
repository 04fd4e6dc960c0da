import { describe, expect, it } from "vitest";
import { COMPLETION_LIMIT, completionResult, idPrefix, topicOfPlanName, topicText } from "./completion";

describe("completion policy", () => {
  it("completes ids only from text that can begin one", () => {
    expect(idPrefix("")).toBe("");
    expect(idPrefix("pln_4a")).toBe("pln_4a");
    expect(idPrefix("pln%")).toBeNull();
    expect(idPrefix("a b")).toBeNull();
    expect(idPrefix("x".repeat(65))).toBeNull();
  });

  it("matches topics on one bounded line and drops the mode tag from plan names", () => {
    expect(topicText("  vector\n databases ")).toBe("vector databases");
    expect(topicText("y".repeat(500))).toHaveLength(64);
    expect(topicOfPlanName("[Deep] Embedded vector databases")).toBe("Embedded vector databases");
    expect(topicOfPlanName("[scan]Rust web frameworks")).toBe("Rust web frameworks");
    expect(topicOfPlanName("No tag")).toBe("No tag");
  });

  it("returns distinct values, at most the limit, and says when there were more", () => {
    const many = Array.from({ length: COMPLETION_LIMIT + 1 }, (_, i) => `v${i}`);
    expect(completionResult(many)).toEqual({ values: many.slice(0, COMPLETION_LIMIT), hasMore: true });
    expect(completionResult(["a", "a", "b"])).toEqual({ values: ["a", "b"], hasMore: false });
  });
});
