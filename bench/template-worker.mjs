/**
 * Row T: what a user would assemble instead of Cairn, from Cloudflare's
 * remote-MCP template pattern (agents' `createMcpHandler`, SDK v2 server,
 * `@cloudflare/workers-oauth-provider`, as in agents' docs/mcp-servers.md), doing
 * the same D1 read as row B with the same kind of token: an OAuth access token
 * issued by the provider, checked against KV on every call, bound to the
 * resource. Bundled by the bench only; `agents` is a devDependency for this.
 *
 * The template leaves sign-in to the user; here /authorize approves the bench's
 * own admin at once (found by e-mail in the shared D1). That page is not on the
 * measured path: only /mcp is loaded.
 */
import { OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler, getMcpAuthContext } from "agents/mcp/server";
import { env } from "cloudflare:workers";
import { z } from "zod";

const LIST_SQL = `SELECT id, org_id, user_id, client_id, skill_name, status, session_id, plan_id, error_message, closed_reason, version,
    created_at, updated_at, completed_at,
    CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.topic') END AS topic,
    CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.delegatedTo') END AS delegatedTo
  FROM skill_executions WHERE org_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`;

function createServer() {
  const server = new McpServer({ name: "template", version: "1.0.0" });
  server.registerTool(
    "list_skill_executions",
    {
      description: "List your organization's skill executions, newest first.",
      inputSchema: z.object({ limit: z.number().int().min(1).max(50).optional() }),
    },
    async ({ limit }) => {
      const orgId = String(getMcpAuthContext()?.props.orgId ?? "");
      const { results } = await env.DB.prepare(LIST_SQL)
        .bind(orgId, limit ?? 20)
        .all();
      const executions = results.map(({ id, ...row }) => ({ executionId: id, ...row }));
      return { content: [{ type: "text", text: JSON.stringify({ executions }) }], structuredContent: { executions } };
    },
  );
  return server;
}

/** Approves the bench admin (`?login_hint=` their e-mail) for the client that asked. */
const authorize = {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/authorize") return new Response("Not found", { status: 404 });
    const auth = await env.OAUTH_PROVIDER.parseAuthRequest(request);
    const user = await env.DB.prepare("SELECT u.id AS userId, m.org_id AS orgId FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = ?")
      .bind(url.searchParams.get("login_hint") ?? "")
      .first();
    if (!user) return new Response("Unknown user", { status: 403 });
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({
      request: auth,
      userId: user.userId,
      metadata: {},
      scope: auth.scope,
      props: { userId: user.userId, orgId: user.orgId },
    });
    return Response.redirect(redirectTo, 302);
  },
};

const mcpHandler = createMcpHandler(createServer);

export default new OAuthProvider({
  authorizeEndpoint: "/authorize",
  tokenEndpoint: "/oauth/token",
  clientRegistrationEndpoint: "/oauth/register",
  apiRoute: "/mcp",
  apiHandler: {
    fetch(request, env, ctx) {
      return mcpHandler(request, env, ctx);
    },
  },
  defaultHandler: authorize,
  // The URL MCP clients connect to. Every token is bound to it.
  resourceMetadata: { resource: env.MCP_RESOURCE },
});
