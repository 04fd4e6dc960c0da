import { describe, expect, it } from "vitest";
import { callTool, rest, seedTenant } from "../../test/support/worker";

describe("get_skill_execution", () => {
  it("returns the full record, metadata included, on both faces", async () => {
    const { apiKey } = await seedTenant();
    const created = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: { topic: "t", delegatedTo: "scan" } });
    const viaMcp = await callTool(apiKey, "get_skill_execution", { executionId: created.body.executionId });
    const viaRest = await (await rest(apiKey, `/skill-executions/${created.body.executionId}`)).json();
    const { created: _c, originalQueryTruncated: _t, ...record } = created.body;
    expect(viaMcp.body).toEqual(record);
    expect(viaRest).toEqual(record);
  });

  it.each([
    [{}, "executionId"],
    [{ executionId: "" }, "executionId"],
    [{ executionId: 7 }, "executionId"],
    [{ executionId: "x".repeat(65) }, "executionId"],
    [{ executionId: "exec_1", extra: true }, "(input)"],
  ])("refuses %j with a validation error", async (input, path) => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "get_skill_execution", input);
    expect(body).toMatchObject({ error: { code: "validation" } });
    expect((body as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toContain(path);
  });

  it("answers not_found for an id that does not exist", async () => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "get_skill_execution", { executionId: "exec_doesnotexist0000000000000" });
    expect(body).toMatchObject({ error: { code: "not_found", message: 'No skill execution with id "exec_doesnotexist0000000000000" exists.' } });
  });
});
