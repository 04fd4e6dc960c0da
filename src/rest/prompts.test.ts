import { describe, expect, it } from "vitest";
import { fetchWorker, ORIGIN, rest, seedApiKey, seedTenant, seedUser } from "../../test/support/worker";
import { SKILL_NAMES } from "../domain/skills";
import { renderNamedPrompt, SKILLS } from "../mcp/prompts";

type Listed = { name: string; title: string; description: string; arguments: { name: string }[] };

describe("GET /api/v1/prompts", () => {
  it("lists the four skills as MCP prompts/list does", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/prompts");
    expect(response.status).toBe(200);
    const { prompts } = (await response.json()) as { prompts: Listed[] };
    expect(prompts.map((p) => p.name)).toEqual([...SKILL_NAMES]);
    expect(prompts[0]?.description).toBe(SKILLS[0]?.description);
  });

  it("renders one with the topic from the query, the same text MCP prompts/get gives", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, `/prompts/research-output?topic=${encodeURIComponent("EU AI Act, obligations")}&planId=plan_abc`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Listed & { text: string };
    expect(body.name).toBe("research-output");
    expect(body.text).toContain("Topic: EU AI Act, obligations");
    expect(body.text).toContain("Plan: plan_abc");
    expect(body.text).toContain("submit_research_feedback");
    expect(body.text).toBe(renderNamedPrompt("research-output", { topic: "EU AI Act, obligations", planId: "plan_abc" })?.text);
  });

  it("answers an unknown prompt with 404 and a bad argument with 400, as problem details", async () => {
    const { apiKey } = await seedTenant();
    const missing = await rest(apiKey, "/prompts/research-everything");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    expect(await missing.json()).toMatchObject({ code: "not_found", detail: expect.stringContaining("research-scan") });
    const bad = await rest(apiKey, "/prompts/research?planId=plan_abc");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "validation", issues: [{ path: "planId" }] });
    expect((await rest(apiKey, "/prompts/research/extra")).status).toBe(404);
  });

  it("requires a credential with research:read, and only GET", async () => {
    const unauthenticated = await rest(null, "/prompts");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("www-authenticate")).toContain("resource_metadata=");
    expect((await rest("cairn_not_a_real_key_000000000000000000", "/prompts/research")).status).toBe(401);

    const { orgId } = await seedTenant();
    const member = await seedUser(orgId);
    const { key: noScopes } = await seedApiKey(orgId, member.userId, []);
    const forbidden = await rest(noScopes, "/prompts");
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("www-authenticate")).toContain('scope="research:read"');
    const { key: reader } = await seedApiKey(orgId, member.userId, ["research:read"]);
    expect((await rest(reader, "/prompts/research-scan?topic=x")).status).toBe(200);
    expect((await rest(reader, "/prompts", { method: "POST", body: "{}" })).status).toBe(405);
  });

  it("is described in the OpenAPI document", async () => {
    const document = (await (await fetchWorker(new Request(`${ORIGIN}/api/v1/openapi.json`))).json()) as {
      paths: Record<string, Record<string, { operationId: string; "x-required-scope": string; parameters?: { name: string; schema: { enum?: string[] } }[] }>>;
    };
    expect(document.paths["/api/v1/prompts"]?.get?.["x-required-scope"]).toBe("research:read");
    const get = document.paths["/api/v1/prompts/{name}"]?.get;
    expect(get?.operationId).toBe("get_prompt");
    expect(get?.parameters?.find((p) => p.name === "name")?.schema.enum).toEqual([...SKILL_NAMES]);
    expect(get?.parameters?.map((p) => p.name)).toEqual(["name", "topic", "planId"]);
  });
});
