import { describe, expect, it } from "vitest";
import { jsonSchemaOf } from "../../src/operations/json-schema";
import { OPERATIONS } from "../../src/operations/registry";
import { callTool, countRows, rest, seedTenant } from "../support/worker";

const TABLES = ["skill_executions", "audit_log", "plans"] as const;
const snapshotCounts = async () => Promise.all(TABLES.map((table) => countRows(table)));

interface ObjectSchema {
  properties?: Record<string, { type?: string; maxLength?: number }>;
  required?: string[];
}

/** Bad inputs derived from each operation's own schema, so a new operation is covered without edits here. */
function badInputs(operation: (typeof OPERATIONS)[number]): [string, unknown][] {
  const schema = jsonSchemaOf(operation.input, "input") as ObjectSchema;
  const properties = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  const cases: [string, unknown][] = [
    ["an unknown field", { unexpectedField: true }],
  ];
  for (const [name, property] of properties) {
    const wrong = property.type === "string" ? 12345 : "not-the-right-type";
    cases.push([`a wrong type for ${name}`, { [name]: wrong }]);
    // A string without a declared maxLength is bounded by its handler (extract_data's 1 MiB documents): probe it past that.
    if (property.type === "string") cases.push([`an oversize ${name}`, { [name]: "x".repeat(property.maxLength === undefined ? 1_500_000 : 300_000) }]);
  }
  if (required.length > 0) cases.push(["no fields at all", {}]);
  return cases;
}

describe("bad input to every operation", () => {
  it("answers tool arguments that are not an object at the protocol level", async () => {
    const { apiKey } = await seedTenant();
    await expect(callTool(apiKey, "get_plan_status", ["not", "an", "object"])).rejects.toThrow(/-32602/);
  });

  for (const operation of OPERATIONS) {
    it(`${operation.name}: every bad input is a validation error that names its field, and nothing is written`, async () => {
      const { apiKey } = await seedTenant();
      const before = await snapshotCounts();
      for (const [label, input] of badInputs(operation)) {
        const { isError, body } = await callTool(apiKey, operation.name, input);
        const error = (body as { error?: { code: string; message: string; issues?: { path: string }[] } }).error;
        expect(isError, `${label}: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
        expect(["validation", "payload_too_large"], label).toContain(error?.code);
        expect(error?.message.length, label).toBeGreaterThan(10);
        if (error?.code === "validation") expect(error.issues?.length, label).toBeGreaterThan(0);
      }
      expect(await snapshotCounts()).toEqual(before);
    });
  }

  it("gives the same answer over REST, as 400 problem details", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/plans", { method: "POST", body: JSON.stringify({ name: 42 }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "validation", issues: expect.arrayContaining([expect.objectContaining({ path: "name" })]) });
    const notAnObject = await rest(apiKey, "/plans", { method: "POST", body: JSON.stringify(["a", "list"]) });
    expect(notAnObject.status).toBe(400);
    expect(await notAnObject.json()).toMatchObject({ code: "validation", issues: [{ path: "(body)" }] });
  });
});
