import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError as UnauthorizedV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { describe, expect, inject, it } from "vitest";
import { HeadlessOAuthProvider } from "../support/headless-oauth-provider";
import { authorizeInBrowser } from "../support/oauth-flow";

const server = inject("server");
const mcpUrl = new URL(`${server.url}/mcp`);
const person = { email: server.email, password: server.password };
const browserFetch = (request: Request) => fetch(request);

// The caller's read position (D1 read replicas): `<database binding>:<D1 bookmark>` in a result's _meta.
const POSITION_KEY = "cairn/bookmark";
const POSITION = /^[A-Z][A-Z0-9_]*:[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const positionOf = (result: { _meta?: Record<string, unknown> }): string => String(result._meta?.[POSITION_KEY] ?? "");
const bookmarkOf = (position: string): string => position.slice(position.indexOf(":") + 1);

async function expectUnauthorized(connect: Promise<unknown>, errorClass: new (...args: never[]) => Error) {
  const error = await connect.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(errorClass);
}

describe("a 2025-era client (@modelcontextprotocol/sdk v1)", () => {
  it("discovers, registers, signs in through the consent page, calls tools, and refreshes its token", async () => {
    const provider = new HeadlessOAuthProvider("http://localhost:53682/callback", "E2E v1 client");
    const transport = () => new TransportV1(mcpUrl, { authProvider: provider as never });
    await expectUnauthorized(new ClientV1({ name: "e2e-v1", version: "1.0.0" }).connect(transport()), UnauthorizedV1);
    expect(provider.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(provider.authorizationUrl?.searchParams.get("resource")).toMatch(new RegExp(`^${server.url}(/mcp)?$`));

    const redirect = await authorizeInBrowser(browserFetch, String(provider.authorizationUrl), person);
    expect(redirect.searchParams.get("iss")).toBe(server.url);
    const finishing = transport();
    await finishing.finishAuth(redirect.searchParams.get("code") ?? "");
    expect(provider.savedTokens).toHaveLength(1);

    const client = new ClientV1({ name: "e2e-v1", version: "1.0.0" });
    await client.connect(transport());
    expect(client.getServerVersion()?.name).toBe("cairn");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("log_skill_execution");
    const created = await client.callTool({ name: "log_skill_execution", arguments: { skillName: "research", metadata: { topic: "v1 client" } } });
    expect(created.isError).toBeFalsy();
    const executionId = (created.structuredContent as { executionId: string }).executionId;
    expect(executionId).toMatch(/^exec_/);

    // The read position rides in _meta; sent back, the next call reads at least that recent a state.
    const position = positionOf(created);
    expect(position).toMatch(POSITION);

    provider.spoilAccessToken();
    const read = await client.callTool({ name: "get_skill_execution", arguments: { executionId }, _meta: { [POSITION_KEY]: position } });
    expect((read.structuredContent as { metadata: { topic: string } }).metadata.topic).toBe("v1 client");
    expect(bookmarkOf(positionOf(read)) >= bookmarkOf(position)).toBe(true);
    expect(provider.savedTokens.length).toBeGreaterThan(1);
    expect(provider.savedTokens.at(-1)?.refresh_token).not.toBe(provider.savedTokens[0]?.refresh_token);
    await client.close();
  });
});

describe("a 2026-07-28 client (@modelcontextprotocol/client v2)", () => {
  it("completes the flow, validates iss, calls tools on the modern protocol, and refreshes its token", async () => {
    const provider = new HeadlessOAuthProvider("http://localhost:53683/callback", "E2E v2 client");
    const transport = () => new TransportV2(mcpUrl, { authProvider: provider as never });
    const modern = () => new ClientV2({ name: "e2e-v2", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await expectUnauthorized(modern().connect(transport()), UnauthorizedV2);

    const redirect = await authorizeInBrowser(browserFetch, String(provider.authorizationUrl), person);
    await transport().finishAuth(redirect.searchParams);

    const client = modern();
    await client.connect(transport());
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const created = await client.callTool({
      name: "log_skill_execution",
      arguments: { skillName: "research", sessionId: "e2e-session", metadata: { topic: "v2 client", delegatedTo: "deep" } },
    });
    expect(created.isError).toBeFalsy();
    const executionId = (created.structuredContent as { executionId: string }).executionId;
    const completed = await client.callTool({
      name: "log_skill_execution",
      arguments: { executionId, status: "completed", closedReason: "done" },
      _meta: { [POSITION_KEY]: positionOf(created) },
    });
    expect(completed.structuredContent).toMatchObject({ status: "completed" }); // the acknowledgement does not echo the closedReason back
    expect(bookmarkOf(positionOf(completed)) > bookmarkOf(positionOf(created))).toBe(true);

    provider.spoilAccessToken();
    const listed = await client.callTool({ name: "list_skill_executions", arguments: { sessionId: "e2e-session" } });
    expect((listed.structuredContent as { executions: { executionId: string }[] }).executions.map((e) => e.executionId)).toEqual([executionId]);
    expect(provider.savedTokens.length).toBeGreaterThan(1);
    await client.close();
  });

  it("refuses an authorization response whose iss is not the issuer", async () => {
    const provider = new HeadlessOAuthProvider("http://localhost:53684/callback", "E2E v2 mix-up");
    const transport = () => new TransportV2(mcpUrl, { authProvider: provider as never });
    await expectUnauthorized(new ClientV2({ name: "x", version: "1" }).connect(transport()), UnauthorizedV2);
    const redirect = await authorizeInBrowser(browserFetch, String(provider.authorizationUrl), person);
    redirect.searchParams.set("iss", "https://attacker.example");
    await expect(transport().finishAuth(redirect.searchParams)).rejects.toThrow();
    expect(provider.savedTokens).toHaveLength(0);
  });
});

describe("API keys over real HTTP", () => {
  it("serve the v2 client on the legacy protocol and the REST face", async () => {
    const client = new ClientV2({ name: "e2e-key", version: "1" });
    await client.connect(new TransportV2(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${server.apiKey}` } } }));
    const result = await client.callTool({ name: "log_skill_execution", arguments: { skillName: "research-scan" } });
    expect(result.isError).toBeFalsy();
    await client.close();
    const response = await fetch(`${server.url}/api/v1/skill-executions?skillName=research-scan`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { executions: unknown[] }).executions.length).toBeGreaterThan(0);
  });

  it("refuse a write with a read-only key with a 403 naming the scope", async () => {
    const response = await fetch(`${server.url}/api/v1/skill-executions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.readOnlyKey}`, "content-type": "application/json" },
      body: JSON.stringify({ skillName: "research" }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('scope="research:write"');
  });
});
