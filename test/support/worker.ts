import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { generateApiKey } from "../../src/auth/api-keys";
import { hashPassword } from "../../src/auth/password";
import { newId } from "../../src/domain/ids";
import type { Role, Scope } from "../../src/domain/scopes";
import worker from "../../src/index";
import { type FetchLike, obtainTokens, type FlowOptions } from "./oauth-flow";

export const ORIGIN = "http://localhost:8787";

/**
 * Calls the real Worker entry (OAuth provider and all) over `bindings` and waits for the work it
 * deferred with waitUntil, after reading the body, so tests can see the tool-call log. Tests that
 * step in between the Worker's own steps pass bindings they wrap; the rest use fetchWorker.
 */
export const fetchWorkerOver =
  (bindings: unknown): FetchLike =>
  async (request) => {
    const headers = new Headers(request.headers);
    if (!headers.has("host")) headers.set("host", new URL(request.url).host);
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(request, { headers }), bindings as never, ctx);
    const body = await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return new Response(response.status === 101 || response.status === 204 || response.status === 304 ? null : body, response);
  };

/** The real Worker over the test's own bindings. */
export const fetchWorker: FetchLike = fetchWorkerOver(env);

export interface SeededUser {
  userId: string;
  email: string;
  password: string;
}

export async function seedOrg(slug = `org-${crypto.randomUUID().slice(0, 8)}`): Promise<string> {
  const id = newId("org");
  await env.DB.prepare("INSERT INTO orgs (id, slug, name, created_at) VALUES (?, ?, ?, ?)").bind(id, slug, `Org ${slug}`, Date.now()).run();
  return id;
}

export async function seedUser(orgId: string, role: Role = "member", email = `${crypto.randomUUID().slice(0, 8)}@example.com`): Promise<SeededUser> {
  const userId = newId("usr");
  const password = `pw-${crypto.randomUUID()}`;
  await env.DB.prepare("INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(userId, email.toLowerCase(), email, await hashPassword(password), Date.now())
    .run();
  await addMembership(orgId, userId, role);
  return { userId, email, password };
}

export async function addMembership(orgId: string, userId: string, role: Role): Promise<void> {
  await env.DB.prepare("INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)").bind(orgId, userId, role, Date.now()).run();
}

export async function seedApiKey(orgId: string, userId: string, scopes: Scope[] = ["research:read", "research:write"]) {
  const { key, prefix, hash } = await generateApiKey();
  const id = newId("key");
  await env.DB.prepare("INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(id, orgId, userId, "test", prefix, hash, JSON.stringify(scopes), Date.now())
    .run();
  return { id, key };
}

/** An org with an admin, an API key with the research scopes, and nothing else. */
export async function seedTenant() {
  const orgId = await seedOrg();
  const admin = await seedUser(orgId, "admin");
  const apiKey = await seedApiKey(orgId, admin.userId);
  return { orgId, admin, apiKey: apiKey.key, apiKeyId: apiKey.id };
}

export const tokensFor = (options: FlowOptions) => obtainTokens(fetchWorker, ORIGIN, options);

export interface JsonRpcMessage {
  jsonrpc: "2.0";
  id?: number | string;
  result?: Record<string, unknown> & { structuredContent?: Record<string, unknown>; isError?: boolean; content?: { type: string; text: string }[] };
  error?: { code: number; message: string; data?: unknown };
}

/** Reads the last JSON-RPC message of an MCP response, JSON or server-sent events. */
export async function readJsonRpc(response: Response): Promise<JsonRpcMessage> {
  const text = await response.text();
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const data = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice(6));
    const last = data[data.length - 1];
    if (!last) throw new Error(`empty event stream: ${text}`);
    return JSON.parse(last) as JsonRpcMessage;
  }
  return JSON.parse(text) as JsonRpcMessage;
}

let nextId = 1;

/** One 2025-era stateless JSON-RPC request to /mcp. */
export function mcpRequest(token: string | null, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
}

/** Calls a tool and returns its result (structured content, or the error it reported). */
export async function callTool(token: string, name: string, args: unknown) {
  const response = await fetchWorker(mcpRequest(token, "tools/call", { name, arguments: args }));
  const message = await readJsonRpc(response);
  if (message.error) throw new Error(`JSON-RPC error ${message.error.code}: ${message.error.message}`);
  const result = message.result ?? {};
  const text = result.content?.[0]?.text ?? "null";
  return { isError: result.isError === true, structured: result.structuredContent, body: JSON.parse(text) as Record<string, unknown> };
}

export function rest(token: string | null, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  return fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
}

export async function countRows(table: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}
