import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { addUsage, budgetLines, budgetWarning, EMPTY_USAGE, exhaustedLines, raiseBudget, toolCallsOf, warningLines } from "./budget";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

describe("budget arithmetic", () => {
  it("adds what a result reports; tool calls default to the execution report's entries", () => {
    const report = { webSearches: [1, 2], webFetches: [3], otherToolCalls: [4] };
    expect(toolCallsOf(undefined, report)).toBe(4);
    expect(toolCallsOf({ toolCalls: 0 }, report)).toBe(0);
    expect(toolCallsOf(undefined, null)).toBe(0);
    const once = addUsage({ ...EMPTY_USAGE, steps: 2 }, { inputTokens: 100, outputTokens: 20 }, 4);
    expect(once).toEqual({ steps: 2, inputTokens: 100, outputTokens: 20, toolCalls: 4 });
    expect(addUsage(once, undefined, 1)).toEqual({ steps: 2, inputTokens: 100, outputTokens: 20, toolCalls: 5 });
  });

  it("lists only the limits set, tokens as input plus output", () => {
    const lines = budgetLines({ maxSteps: 10, maxTokens: 1000 }, { steps: 3, inputTokens: 600, outputTokens: 200, toolCalls: 50 }, T0, T0);
    expect(lines).toEqual([
      { dimension: "steps", used: 3, limit: 10, fraction: 0.3 },
      { dimension: "tokens", used: 800, limit: 1000, fraction: 0.8 },
    ]);
    expect(budgetLines(null, EMPTY_USAGE, T0, T0)).toEqual([]);
  });

  it("warns from 80 % until the limit, then counts the limit as reached", () => {
    const at = (steps: number) => budgetLines({ maxSteps: 10 }, { ...EMPTY_USAGE, steps }, T0, T0);
    expect(warningLines(at(7))).toEqual([]);
    expect(warningLines(at(8)).map((l) => l.dimension)).toEqual(["steps"]);
    expect(budgetWarning(at(8))).toContain("8 of 10 steps used (80 %)");
    expect(exhaustedLines(at(9))).toEqual([]);
    expect(exhaustedLines(at(10)).map((l) => l.dimension)).toEqual(["steps"]);
    expect(warningLines(at(10))).toEqual([]);
    expect(budgetWarning(at(10))).toBeNull();
  });

  it("measures the deadline as the share of time passed since the start", () => {
    const deadline = T0 + 10 * HOUR;
    const line = (now: number) => budgetLines({ deadline }, EMPTY_USAGE, T0, now)[0];
    expect(line(T0 + 5 * HOUR)?.fraction).toBeCloseTo(0.5);
    expect(budgetWarning(budgetLines({ deadline }, EMPTY_USAGE, T0, T0 + 9 * HOUR))).toContain("60 min left");
    expect(exhaustedLines(budgetLines({ deadline }, EMPTY_USAGE, T0, deadline)).map((l) => l.dimension)).toEqual(["deadline"]);
  });

  it("a zero limit is reached at once", () => {
    expect(exhaustedLines(budgetLines({ maxToolCalls: 0 }, EMPTY_USAGE, T0, T0))).toHaveLength(1);
  });
});

describe("raising a budget", () => {
  const usage = { steps: 10, inputTokens: 0, outputTokens: 0, toolCalls: 30 };

  it("keeps the limits not named and replaces the ones given", () => {
    expect(raiseBudget({ maxSteps: 10, maxToolCalls: 100 }, { maxSteps: 15 }, usage, T0, T0)).toEqual({ maxSteps: 15, maxToolCalls: 100 });
  });

  it("refuses a raise that leaves a spent limit spent, naming the field", () => {
    try {
      raiseBudget({ maxSteps: 10 }, { maxSteps: 10 }, usage, T0, T0);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CairnError);
      expect((error as CairnError).code).toBe("validation");
      expect((error as CairnError).details.issues?.[0]?.path).toBe("budget.maxSteps");
    }
    expect(() => raiseBudget({ maxSteps: 10 }, undefined, usage, T0, T0)).toThrow(/raises the budget/);
    expect(() => raiseBudget({ deadline: T0 + HOUR }, { deadline: T0 + HOUR }, usage, T0, T0 + 2 * HOUR)).toThrow(/deadline/);
  });
});
