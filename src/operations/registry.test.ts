import { describe, expect, it } from "vitest";
import { callTool, seedTenant } from "../../test/support/worker";
import { getSkillExecution } from "./get-skill-execution";
import { listSkillExecutions } from "./list-skill-executions";
import { logSkillExecution } from "./log-skill-execution";
import { OPERATIONS } from "./registry";

describe("the registry", () => {
  it("has unique names and unique REST bindings", () => {
    expect(new Set(OPERATIONS.map((o) => o.name)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((o) => `${o.rest.method} ${o.rest.path}`)).size).toBe(OPERATIONS.length);
  });

  it("returns exactly the declared output shape from every operation", async () => {
    const { apiKey } = await seedTenant();
    const created = await callTool(apiKey, logSkillExecution.name, { skillName: "research", metadata: { topic: "t" } });
    const read = await callTool(apiKey, getSkillExecution.name, { executionId: created.body.executionId });
    const listed = await callTool(apiKey, listSkillExecutions.name, {});
    const checks = [
      [logSkillExecution, created.structured],
      [getSkillExecution, read.structured],
      [listSkillExecutions, listed.structured],
    ] as const;
    expect(checks.map(([operation]) => operation.name).sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
    for (const [operation, structured] of checks) {
      // Parsing strips undeclared keys, so equality proves nothing extra and nothing missing.
      expect(operation.output.parse(structured), operation.name).toEqual(structured);
    }
  });
});
