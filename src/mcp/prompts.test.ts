import { describe, expect, it } from "vitest";
import { fetchWorker, mcpRequest, readJsonRpc, seedApiKey, seedTenant } from "../../test/support/worker";
import { SKILL_NAMES } from "../domain/skills";
import { SKILLS } from "./prompts";

const rpc = async (key: string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  readJsonRpc(await fetchWorker(mcpRequest(key, method, params, headers)));

type Listed = { name: string; title: string; description: string; arguments: { name: string; required: boolean }[] };
type Got = { description: string; messages: { role: string; content: { type: string; text: string } }[] };

describe("MCP prompts", () => {
  it("are announced in the capabilities of initialize", async () => {
    const { apiKey } = await seedTenant();
    const init = await rpc(apiKey, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect((init.result?.capabilities as Record<string, unknown> | undefined)?.prompts).toEqual({ listChanged: false });
  });

  it("lists the four skills with their SKILL.md descriptions and a topic argument", async () => {
    const { apiKey } = await seedTenant();
    const listed = (await rpc(apiKey, "prompts/list")).result?.prompts as Listed[];
    expect(listed.map((prompt) => prompt.name)).toEqual([...SKILL_NAMES]);
    for (const prompt of listed) {
      const skill = SKILLS.find((candidate) => candidate.name === prompt.name);
      expect(prompt.description).toBe(skill?.description);
      expect(prompt.title.length).toBeGreaterThan(5);
      expect(prompt.arguments).toContainEqual(expect.objectContaining({ name: "topic", required: false }));
    }
    expect(listed.find((prompt) => prompt.name === "research-output")?.arguments.map((a) => a.name)).toEqual(["topic", "planId"]);
  });

  it("renders a prompt with the topic filled in, followed by the skill's instructions", async () => {
    const { apiKey } = await seedTenant();
    const got = (await rpc(apiKey, "prompts/get", { name: "research", arguments: { topic: "Vector databases for RAG" } })).result as Got;
    expect(got.messages).toHaveLength(1);
    const [message] = got.messages;
    expect(message?.role).toBe("user");
    expect(message?.content.type).toBe("text");
    expect(message?.content.text).toContain("Topic: Vector databases for RAG");
    expect(message?.content.text).toContain("log_skill_execution");
    expect(message?.content.text).toContain(SKILLS[0]?.body.slice(0, 200));
    expect(message?.content.text).not.toMatch(/^---\nname:/);

    const bare = (await rpc(apiKey, "prompts/get", { name: "research-deep" })).result as Got;
    expect(bare.messages[0]?.content.text).toContain("Topic: not given yet");
    expect(bare.messages[0]?.content.text).toContain("record_evidence");
  });

  it("answers an unknown prompt and a bad argument with invalid params that say what is wrong", async () => {
    const { apiKey } = await seedTenant();
    const unknown = await rpc(apiKey, "prompts/get", { name: "research-everything", arguments: { topic: "x" } });
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain("Unknown prompt: research-everything");
    expect(unknown.error?.message).toContain("research-scan");
    const extra = await rpc(apiKey, "prompts/get", { name: "research", arguments: { planId: "plan_x" } });
    expect(extra.error?.code).toBe(-32602);
    expect(extra.error?.message).toContain("planId: Not an argument of research");
  });

  it("serves prompts on the 2026-07-28 protocol too", async () => {
    const { apiKey } = await seedTenant();
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
    };
    const headers = { "mcp-protocol-version": "2026-07-28" };
    const list = await rpc(apiKey, "prompts/list", { _meta: meta }, { ...headers, "mcp-method": "prompts/list" });
    expect(list.result).toMatchObject({ cacheScope: "private" });
    expect((list.result?.prompts as Listed[] | undefined)?.map((p) => p.name)).toEqual([...SKILL_NAMES]);
    const got = await rpc(apiKey, "prompts/get", { _meta: meta, name: "research-scan", arguments: { topic: "Edge caching" } }, {
      ...headers,
      "mcp-method": "prompts/get",
      "mcp-name": "research-scan",
    });
    expect((got.result as Got).messages[0]?.content.text).toContain("Topic: Edge caching");
  });

  it("need only the research:read scope", async () => {
    const { orgId, admin } = await seedTenant();
    const { key } = await seedApiKey(orgId, admin.userId, ["research:read"]);
    expect(((await rpc(key, "prompts/list")).result?.prompts as Listed[] | undefined)?.length).toBe(4);
  });
});
