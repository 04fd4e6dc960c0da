import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { fetchWorker, mcpRequest, readJsonRpc, seedTenant } from "../../test/support/worker";
import { mentionedIdentifiers, SKILL_NAMES } from "../domain/skills";
import { OPERATIONS } from "../operations/registry";

/** The Skills extension (SEP-2640) and the core profile's texts, through the real worker. */
type Endpoint = "/mcp" | "/mcp/core";
type FileEntry = { uri: string; digest: string; size: number };
type Entry = { uri: string; frontmatter: Record<string, unknown>; resources: FileEntry[] };

const MODERN = "2026-07-28";
const modernMeta = (capabilities: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": capabilities,
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
});

/** A 2025-11-25 request, or with `modern` a 2026-07-28 one carrying the client's capabilities in `_meta`. */
async function rpc(key: string, endpoint: Endpoint, method: string, params: Record<string, unknown> = {}, modern?: { capabilities?: Record<string, unknown> }) {
  const request = modern
    ? mcpRequest(key, method, { ...params, _meta: modernMeta(modern.capabilities) }, { "mcp-protocol-version": MODERN, "mcp-method": method })
    : mcpRequest(key, method, params);
  return readJsonRpc(await fetchWorker(new Request(request.url.replace(/\/mcp$/, endpoint), request)));
}

async function sha256(text: string): Promise<{ digest: string; size: number }> {
  const bytes = new TextEncoder().encode(text);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return { digest: `sha256:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`, size: bytes.byteLength };
}

const TOOL_NAMES = new Set(OPERATIONS.map((operation) => operation.name));

describe("the Skills extension", () => {
  it("is declared beside resources, and lists the four skills whose files read back with the digest, size and front matter listed", async () => {
    const { apiKey } = await seedTenant();
    const init = await rpc(apiKey, "/mcp", "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    const capabilities = init.result?.capabilities as { extensions?: Record<string, unknown>; resources?: unknown };
    expect(capabilities.extensions?.["io.modelcontextprotocol/skills"]).toEqual({});
    expect(capabilities.resources).toBeDefined();

    const listed = (await rpc(apiKey, "/mcp", "skills/list")).result as { skills: Entry[]; ttlMs?: number; nextCursor?: string };
    expect(listed.skills.map((skill) => skill.uri)).toEqual(SKILL_NAMES.map((name) => `skill://cairn/${name}/SKILL.md`));
    expect(listed.nextCursor).toBeUndefined();
    // ttlMs and cacheScope exist from 2026-07-28 on: not on a 2025 answer.
    expect(listed.ttlMs).toBeUndefined();
    for (const skill of listed.skills) {
      expect(skill.resources.map((file) => file.uri)).toEqual([skill.uri]);
      const read = (await rpc(apiKey, "/mcp", "resources/read", { uri: skill.uri })).result as { contents: { uri: string; mimeType: string; text: string }[] };
      const [file] = read.contents;
      expect(file?.mimeType).toBe("text/markdown");
      expect(await sha256(file?.text ?? "")).toEqual({ digest: skill.resources[0]?.digest, size: skill.resources[0]?.size });
      expect(parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(file?.text ?? "")?.[1] ?? "")).toEqual(skill.frontmatter);
      expect(skill.uri.split("/").at(-2)).toBe(skill.frontmatter.name);
      // The served file has no profile markers left.
      expect(file?.text).not.toMatch(/<!-- (\/)?full -->|^<!-- core$/m);
    }
    const resources = (await rpc(apiKey, "/mcp", "resources/list")).result as { resources: { uri: string; name: string; description?: string; mimeType?: string }[] };
    const research = resources.resources.find((resource) => resource.uri === "skill://cairn/research/SKILL.md");
    expect(research).toMatchObject({ name: "research", mimeType: "text/markdown", description: listed.skills[0]?.frontmatter.description });
  });

  it("gets one skill by its URI, with ttlMs and cacheScope on 2026-07-28, and answers -32602 for a URI it does not serve", async () => {
    const { apiKey } = await seedTenant();
    const uri = "skill://cairn/research-deep/SKILL.md";
    const got = (await rpc(apiKey, "/mcp", "skills/get", { uri }, {})).result as { skill: Entry; ttlMs: number; cacheScope: string };
    expect(got.skill.uri).toBe(uri);
    expect(got.skill.frontmatter.name).toBe("research-deep");
    expect(got).toMatchObject({ ttlMs: 300_000, cacheScope: "private" });
    const listed = (await rpc(apiKey, "/mcp", "skills/list", {}, {})).result as { skills: Entry[]; ttlMs: number; cacheScope: string };
    expect(listed).toMatchObject({ ttlMs: 300_000, cacheScope: "private" });
    expect(listed.skills.find((skill) => skill.uri === uri)).toEqual(got.skill);

    for (const unknown of ["skill://cairn/research-everything/SKILL.md", "skill://cairn-core/research-deep/SKILL.md"]) {
      const answer = await rpc(apiKey, "/mcp", "skills/get", { uri: unknown });
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain(`No skill is served at ${unknown}`);
    }
    const missing = await rpc(apiKey, "/mcp", "resources/read", { uri: "skill://cairn/research/references/NOTES.md" });
    expect(missing.error?.message).toContain("No skill file at skill://cairn/research/references/NOTES.md");
    expect((await rpc(apiKey, "/mcp", "skills/list", { cursor: "x" })).error?.code).toBe(-32602);
  });
});

describe("the core profile's texts", () => {
  it("name only tools /mcp/core lists to a model: every prompt, every skill file and the instructions", async () => {
    const { apiKey } = await seedTenant();
    const served = new Set((((await rpc(apiKey, "/mcp/core", "tools/list")).result?.tools ?? []) as { name: string }[]).map((tool) => tool.name));
    const texts: Record<string, string> = {};
    const init = await rpc(apiKey, "/mcp/core", "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    texts.instructions = String(init.result?.instructions);
    const prompts = (await rpc(apiKey, "/mcp/core", "prompts/list")).result?.prompts as { name: string; description: string }[];
    expect(prompts.map((prompt) => prompt.name)).toEqual([...SKILL_NAMES]);
    for (const { name, description } of prompts) {
      const got = (await rpc(apiKey, "/mcp/core", "prompts/get", { name, arguments: { topic: "Heat pumps", ...(name === "research" ? {} : { planId: "plan_x" }) } })).result as {
        messages: { content: { text: string } }[];
      };
      texts[`prompt ${name}`] = `${description}\n${got.messages[0]?.content.text}`;
    }
    const skills = ((await rpc(apiKey, "/mcp/core", "skills/list")).result?.skills as Entry[]) ?? [];
    expect(skills.map((skill) => skill.uri)).toEqual(SKILL_NAMES.map((name) => `skill://cairn-core/${name}/SKILL.md`));
    for (const skill of skills) {
      const read = (await rpc(apiKey, "/mcp/core", "resources/read", { uri: skill.uri })).result as { contents: { text: string }[] };
      texts[skill.uri] = read.contents[0]?.text ?? "";
    }
    const outside = Object.entries(texts).flatMap(([where, text]) =>
      mentionedIdentifiers(text)
        .filter((word) => TOOL_NAMES.has(word) && !served.has(word))
        .map((tool) => `${where}: ${tool}`),
    );
    expect(outside).toEqual([]);
    // The texts do run a plan with the core tools.
    for (const tool of ["create_research_plan", "get_next_step", "submit_step_result", "store_research_output", "search_sources"]) {
      expect(Object.values(texts).some((text) => text.includes(tool)), tool).toBe(true);
    }
    // The full profile's texts keep the full protocol.
    const fullDeep = ((await rpc(apiKey, "/mcp", "resources/read", { uri: "skill://cairn/research-deep/SKILL.md" })).result as { contents: { text: string }[] }).contents[0]?.text;
    expect(fullDeep).toContain("record_evidence");
  });

  it("lists the app-only submit_review on 2026-07-28 only to a client that declared MCP Apps; on 2025 revisions, which carry no declaration, marked app-only", async () => {
    const { apiKey } = await seedTenant();
    const names = async (modern?: { capabilities?: Record<string, unknown> }) =>
      (((await rpc(apiKey, "/mcp/core", "tools/list", {}, modern)).result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
    expect(await names({ capabilities: {} })).not.toContain("submit_review");
    const apps = await names({ capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } });
    expect(apps).toContain("submit_review");
    expect(apps.filter((name) => name !== "submit_review")).toEqual(await names({ capabilities: {} }));
    // The 2025 lane: the capabilities were declared at initialize, which this stateless server does not keep.
    expect(await names()).toEqual(apps);
    // Listed or not, the view's call still reaches it (it answers about the plan, not "Unknown tool").
    const call = await rpc(apiKey, "/mcp/core", "tools/call", { name: "submit_review", arguments: { planId: "plan_missing", stepId: "s", decision: "approve" } });
    expect(JSON.stringify(call)).not.toContain("Unknown tool");
  });
});
