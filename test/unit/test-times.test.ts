import { describe, expect, it } from "vitest";
import { suiteFigures, timesTable } from "../../scripts/test-times.mjs";

/** Two files as Vitest's JSON reporter writes them: one passed, one with a failing test. */
const report = {
  numTotalTests: 3,
  numPassedTests: 2,
  numFailedTests: 1,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [
    { name: "/repo/test/a.test.ts", startTime: 1_000, endTime: 3_500, status: "passed", assertionResults: [{ status: "passed" }, { status: "passed" }] },
    { name: "/repo/test/b.test.ts", startTime: 1_000, endTime: 13_000, status: "failed", assertionResults: [{ status: "failed" }] },
  ],
};

describe("the test-time table npm test prints", () => {
  it("counts a suite's files, tests and failures and times each file", () => {
    const figures = suiteFigures("workers", report, "/repo");
    expect(figures).toMatchObject({ suite: "workers", tests: 3, passed: 2, failed: 1 });
    expect(figures.files).toEqual([
      { suite: "workers", file: "test/a.test.ts", tests: 2, failed: 0, seconds: 2.5 },
      { suite: "workers", file: "test/b.test.ts", tests: 1, failed: 1, seconds: 12 },
    ]);
  });

  it("counts a file that failed to load, with no test, as a failure", () => {
    const broken = { numTotalTests: 0, numPassedTests: 0, numFailedTests: 0, testResults: [{ name: "/repo/c.test.ts", startTime: 0, endTime: 0, status: "failed", assertionResults: [] }] };
    expect(suiteFigures("unit", broken, "/repo").failed).toBe(1);
  });

  it("prints a row per suite, the total, and the slowest files first", () => {
    const table = timesTable(
      [
        { suite: "unit", seconds: 40, exitCode: 0, figures: suiteFigures("unit", { ...report, numFailedTests: 0, testResults: [report.testResults[0]] }, "/repo") },
        { suite: "workers", seconds: 600.4, exitCode: 1, figures: suiteFigures("workers", report, "/repo") },
        { suite: "lint", seconds: 3, exitCode: 0, figures: null },
      ],
      1,
    );
    const lines = table.split("\n");
    expect(lines[0]).toMatch(/^suite\s+files\s+tests\s+failed\s+seconds$/);
    expect(lines.find((line) => line.startsWith("workers"))?.split(/\s+/)).toEqual(["workers", "2", "3", "1", "600"]);
    expect(lines.find((line) => line.startsWith("total"))?.split(/\s+/)).toEqual(["total", "3", "6", "1", "643"]);
    expect(table).toContain("The 1 slowest test files");
    expect(lines.at(-1)).toMatch(/^\s+12\.0\s+1\s+workers\s+test\/b\.test\.ts$/);
  });

  it("gives the run's wall time as the total when suites ran at the same time, and says what their own seconds add up to", () => {
    const runs = [
      { suite: "workers", seconds: 700, exitCode: 0, figures: null },
      { suite: "e2e", seconds: 500, exitCode: 0, figures: null },
    ];
    const total = timesTable(runs, 10, 760.2).split("\n").find((line) => line.startsWith("total")) ?? "";
    expect(total.split(/\s+/).slice(0, 5)).toEqual(["total", "0", "0", "0", "760"]);
    expect(total).toContain("add up to 1200");
    // One after the other: the wall time is the sum, and nothing more is said.
    expect(timesTable(runs, 10, 1200.4).split("\n").find((line) => line.startsWith("total"))).toMatch(/^total\s+0\s+0\s+0\s+1200$/);
  });
});
