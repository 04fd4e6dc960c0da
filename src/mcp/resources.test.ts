import { describe, expect, it } from "vitest";
import { createPlan, ok } from "../../test/support/plans";
import { fetchWorker, mcpRequest, readJsonRpc, seedTenant } from "../../test/support/worker";
import { SKILL_NAMES } from "../domain/skills";

const rpc = async (key: string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  readJsonRpc(await fetchWorker(mcpRequest(key, method, params, headers)));

/** `resources/read` on the 2026-07-28 protocol (the `_meta` envelope and routing headers it requires). */
const readModern = (key: string, uri: string) =>
  rpc(
    key,
    "resources/read",
    {
      uri,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
      },
    },
    { "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/read", "mcp-name": uri },
  );

describe("MCP resources", () => {
  it("offers URI templates, lists the org's plans, artifacts and deliverables, and reads each", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "finding", title: "A finding", content: { x: 1 }, contentText: "text" });
    const { outputId } = await ok(apiKey, "store_research_output", { planId, title: "The report", mediaType: "markdown", content: "# Report" });

    const templates = await rpc(apiKey, "resources/templates/list");
    expect(((templates.result?.resourceTemplates ?? []) as { uriTemplate: string }[]).map((t) => t.uriTemplate)).toEqual([
      "cairn://plans/{planId}",
      "cairn://artifacts/{artifactId}",
      "cairn://outputs/{outputId}",
    ]);
    const listed = await rpc(apiKey, "resources/list");
    expect(((listed.result?.resources ?? []) as { uri: string; name: string }[]).map((r) => [r.uri, r.name])).toEqual([
      ["ui://cairn/plan-view.html", "plan-view"],
      ...SKILL_NAMES.map((name) => [`skill://cairn/${name}/SKILL.md`, name]),
      [`cairn://plans/${planId}`, "[Scan] Vector databases"],
      [`cairn://artifacts/${artifactId}`, "A finding"],
      [`cairn://outputs/${outputId}`, "The report"],
    ]);
    for (const [uri, expected] of [
      [`cairn://plans/${planId}`, { planId, progress: 0 }],
      [`cairn://artifacts/${artifactId}`, { artifactId, content: { x: 1 }, trust: "untrusted-external-content" }],
      [`cairn://outputs/${outputId}`, { outputId, content: "# Report" }],
    ] as const) {
      const read = await rpc(apiKey, "resources/read", { uri });
      const contents = read.result?.contents as { uri: string; mimeType: string; text: string }[];
      expect(contents).toHaveLength(1);
      expect(contents[0]?.uri).toBe(uri);
      expect(JSON.parse(contents[0]?.text ?? "{}")).toMatchObject(expected);
    }
  });

  it("answers another org's resource, a missing one and a foreign URI scheme with resource-not-found", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const { artifactId } = await ok(a.apiKey, "store_research", { artifactType: "note", title: "Secret", content: {}, contentText: "secret" });
    for (const uri of [`cairn://artifacts/${artifactId}`, "cairn://artifacts/art_0000000000000000000000000", "file:///etc/passwd", "cairn://artifacts/../../x"]) {
      const read = await rpc(b.apiKey, "resources/read", { uri });
      expect(read.error, uri).toBeDefined();
      expect([-32002, -32602], uri).toContain(read.error?.code);
      expect(JSON.stringify(read)).not.toContain("Secret");
    }
    // Nothing of org A: b sees only the plan view and the skills, which hold no data.
    const listedForB = ((await rpc(b.apiKey, "resources/list")).result?.resources ?? []) as { uri: string }[];
    expect(listedForB.map((r) => r.uri)).toEqual(["ui://cairn/plan-view.html", ...SKILL_NAMES.map((name) => `skill://cairn/${name}/SKILL.md`)]);
  });

  // Resource not found is -32002 up to 2025-11-25 and -32602 from 2026-07-28; both carry the requested URI in data.uri.
  it("answers a missing resource with the era's not-found code and the URI it was asked for", async () => {
    const { apiKey } = await seedTenant();
    for (const uri of ["cairn://artifacts/art_0000000000000000000000000", "cairn://plans/pln_0000000000000000000000000", "cairn://outputs/out_0000000000000000000000000", "file:///etc/passwd"]) {
      for (const version of ["2025-11-25", "2025-06-18"]) {
        const legacy = await rpc(apiKey, "resources/read", { uri }, { "mcp-protocol-version": version });
        expect(legacy.error?.code, `${uri} ${version}`).toBe(-32002);
        expect(legacy.error?.data, `${uri} ${version}`).toEqual({ uri });
      }
      const modern = await readModern(apiKey, uri);
      expect(modern.error?.code, uri).toBe(-32602);
      expect(modern.error?.data, uri).toEqual({ uri });
    }
  });
});
