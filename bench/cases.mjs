/**
 * What each row of the table sends, and how the parent checks — before any
 * load — that the request really succeeds. A benchmark that measures 401s or
 * JSON-RPC errors is worthless, so every case is verified on a real response
 * first, and the load generator re-checks every response cheaply (status plus
 * a marker substring; see load.mjs).
 */

/** The MCP headers of a 2025-era stateless client (notes §1.1: Accept must list both types). */
export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

export const READ_TOOL = { name: "list_skill_executions", arguments: { limit: 5 } };
export const REST_READ_PATH = "/api/v1/skill-executions?limit=5";

/** A JSON-RPC request body for /mcp. */
export const rpcBody = (method, params, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** The last JSON-RPC message of an MCP response (a server-sent event stream or plain JSON). */
export function parseRpc(contentType, text) {
  if ((contentType ?? "").includes("text/event-stream")) {
    const data = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice(6));
    if (data.length === 0) throw new Error(`empty event stream: ${text.slice(0, 500)}`);
    return JSON.parse(data[data.length - 1]);
  }
  return JSON.parse(text);
}

/** Calls /mcp once from the parent (setup and verification, not load). */
export async function mcpCall(publicUrl, credential, method, params, path = "/mcp") {
  const response = await fetch(`${publicUrl}${path}`, {
    method: "POST",
    headers: { ...MCP_HEADERS, authorization: `Bearer ${credential}` },
    body: rpcBody(method, params),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method}: HTTP ${response.status} ${text.slice(0, 500)}`);
  const message = parseRpc(response.headers.get("content-type"), text);
  if (message.error) throw new Error(`${method}: JSON-RPC error ${message.error.code} ${message.error.message}`);
  return message.result;
}

/** Calls a tool and insists on a successful tool result (not `isError`). */
export async function callToolOk(publicUrl, credential, tool) {
  const result = await mcpCall(publicUrl, credential, "tools/call", tool);
  if (result?.isError) throw new Error(`${tool.name} returned a tool error: ${result.content?.[0]?.text}`);
  if (!result?.structuredContent) throw new Error(`${tool.name} returned no structuredContent: ${JSON.stringify(result).slice(0, 500)}`);
  return result.structuredContent;
}

/** A few executions through the real write path, so the read returns a full page of 5. */
export async function seedExecutions(publicUrl, accessToken, count = 8) {
  for (let i = 0; i < count; i++) {
    await callToolOk(publicUrl, accessToken, {
      name: "log_skill_execution",
      arguments: {
        skillName: "research",
        sessionId: `bench-session-${i % 2}`,
        metadata: { topic: `Benchmark topic ${i}`, researchType: "general_topic", delegatedTo: i % 2 ? "deep" : "scan" },
      },
    });
  }
}

/**
 * The load cases. `target` is `bare` or `cairn` (which direct socket);
 * `expect` is checked on every response by load.mjs.
 */
export function loadCases({ accessToken, apiKey, templateToken = null }) {
  const mcp = (credential, target = "cairn") => ({
    target,
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, authorization: `Bearer ${credential}` },
    body: rpcBody("tools/call", READ_TOOL),
    // A tool result with data; an error result has no structuredContent, a JSON-RPC error no result.
    expect: { contains: '"structuredContent":{"executions":[', notContains: '"isError":true' },
  });
  return [
    { id: "A", label: 'bare Hono GET / → "ok"', target: "bare", method: "GET", path: "/", headers: {}, expect: { contains: "ok" } },
    { id: "B", label: "MCP tools/call list_skill_executions, OAuth token", ...mcp(accessToken) },
    { id: "C", label: "MCP tools/call list_skill_executions, API key", ...mcp(apiKey) },
    {
      id: "D",
      label: `REST GET ${REST_READ_PATH}, OAuth token`,
      target: "cairn",
      method: "GET",
      path: REST_READ_PATH,
      headers: { authorization: `Bearer ${accessToken}` },
      expect: { contains: '"executions":[' },
    },
    // The stack's own baseline case (perf-baseline.md, case B): an authenticated MCP call that touches no storage.
    {
      id: "L",
      label: "MCP tools/list, OAuth token (no storage; the baseline's trivial call)",
      target: "cairn",
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, authorization: `Bearer ${accessToken}` },
      body: rpcBody("tools/list", {}),
      expect: { contains: '"tools":[{"name":"log_skill_execution"' },
    },
    // Diagnostic: the Cairn bundle with no auth and no MCP (OAuthProvider routing + Hono), to split B's cost.
    { id: "H", label: "Cairn GET /health (no auth; diagnostic)", target: "cairn", method: "GET", path: "/health", headers: {}, expect: { contains: '"ok"' } },
    // P1's side-by-side row: the same read on Cloudflare's remote-MCP template pattern (bench/template-worker.mjs).
    ...(templateToken
      ? [{ id: "T", label: "template pattern (agents createMcpHandler + workers-oauth-provider): same read, OAuth token", ...mcp(templateToken, "template") }]
      : []),
  ];
}

/** Verifies one case end to end from the parent, the way the load generator will send it. */
export async function verifyCase(testCase, urls) {
  const response = await fetch(`${urls[testCase.target]}${testCase.path}`, {
    method: testCase.method,
    headers: testCase.headers,
    body: testCase.body,
  });
  const text = await response.text();
  const problem = (why) => new Error(`case ${testCase.id} (${testCase.label}) is not measurable: ${why}\n${text.slice(0, 800)}`);
  if (response.status < 200 || response.status > 299) throw problem(`HTTP ${response.status}`);
  if (testCase.path === "/mcp") {
    const message = parseRpc(response.headers.get("content-type"), text);
    if (message.error) throw problem(`JSON-RPC error ${message.error.code}`);
    if (message.result?.isError) throw problem("tool error result");
    const isToolCall = testCase.body?.includes('"tools/call"');
    if (isToolCall && message.result?.structuredContent?.executions?.length !== READ_TOOL.arguments.limit) throw problem("expected a full page of executions");
  } else if (testCase.path === REST_READ_PATH) {
    if (JSON.parse(text).executions?.length !== 5) throw problem("expected a full page of executions");
  }
  if (!text.includes(testCase.expect.contains)) throw problem(`body lacks ${testCase.expect.contains}`);
  if (testCase.expect.notContains && text.includes(testCase.expect.notContains)) throw problem(`body has ${testCase.expect.notContains}`);
  return { status: response.status, contentType: response.headers.get("content-type"), bytes: Buffer.byteLength(text) };
}
