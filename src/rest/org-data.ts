import { insufficientScope, type OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { CairnError, forbidden, isCairnError, validationError } from "../domain/errors";
import { MAX_LINE_BYTES } from "../domain/org-data/format";
import type { Principal } from "../domain/principal";
import { hasScope } from "../domain/scopes";
import type { Env } from "../env";
import { eraseOrg } from "../platform/org-data/erase";
import { exportOrg, exportStream } from "../platform/org-data/export";
import { importOrg } from "../platform/org-data/import";
import { streamLines } from "../platform/org-data/lines";
import { readBoundedText } from "../platform/request-body";
import { problemResponse } from "./problem";

/**
 * The org's data as a whole, for its admins (org:admin, and the admin role):
 *   GET    /org/export[?toolCalls=true]  the org as NDJSON, streamed
 *   POST   /org/import                   an export into this org, which must hold no research yet
 *   DELETE /org  {"confirm":"<slug>"}    erase the org and everything of it
 * Not MCP tools: an assistant has no business moving or erasing an org.
 * Returns null for other paths.
 */
export async function orgDataRoute(
  request: Request,
  relativePath: string,
  env: Env,
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
): Promise<Response | null> {
  const route = relativePath.replace(/\/$/, "");
  const expected = route === "/org/export" ? "GET" : route === "/org/import" ? "POST" : route === "/org" ? "DELETE" : null;
  if (!expected) return null;
  if (request.method !== expected) {
    return problemResponse(new CairnError("method_not_allowed", `${request.method} is not allowed here; use ${expected}.`, { allow: [expected] }), correlationId);
  }
  if (!hasScope(principal.scopes, "org:admin")) return insufficientScope(ctx.auth, ["org:admin"], "Moving or erasing an organization's data needs the org:admin scope");
  try {
    if (principal.role !== "admin") throw forbidden("Only the organization's admins can export, import or erase its data.");
    if (route === "/org/export") {
      const toolCalls = new URL(request.url).searchParams.get("toolCalls") === "true";
      const org = await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(principal.orgId).first<{ slug: string }>();
      const records = exportOrg(env, principal.orgId, { toolCalls });
      const body = exportStream(records, (error) =>
        console.error(JSON.stringify({ level: "error", correlationId, message: "org export failed mid-stream", error: String(error) })),
      );
      return new Response(body, {
        headers: {
          "content-type": "application/x-ndjson; charset=utf-8",
          "content-disposition": `attachment; filename="cairn-${org?.slug ?? "org"}-${new Date().toISOString().slice(0, 10)}.ndjson"`,
          "cache-control": "no-store",
          "x-correlation-id": correlationId,
        },
      });
    }
    if (route === "/org/import") {
      const summary = await importOrg(env, principal.orgId, streamLines(request.body, MAX_LINE_BYTES));
      console.log(JSON.stringify({ level: "info", correlationId, message: "org imported", orgId: principal.orgId, plans: summary.plans }));
      return Response.json({ imported: summary });
    }
    const body = JSON.parse((await readBoundedText(request, 4096)) || "{}") as { confirm?: unknown };
    const org = await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(principal.orgId).first<{ slug: string }>();
    if (!org || body.confirm !== org.slug) {
      throw validationError(`To erase this organization and everything in it, send {"confirm": "<its slug>"}.`, [{ path: "confirm", message: "Must be the organization's slug" }]);
    }
    const erased = await eraseOrg(env, principal.orgId);
    console.log(JSON.stringify({ level: "info", correlationId, message: "org erased", orgId: principal.orgId, ...erased }));
    return Response.json({ erased: { org: org.slug, ...erased } });
  } catch (error) {
    if (isCairnError(error)) return problemResponse(error, correlationId);
    if (error instanceof SyntaxError || error instanceof TypeError) {
      return problemResponse(validationError(`The request is not valid: ${error instanceof SyntaxError ? "the body is not JSON" : "the file is not UTF-8 text"}.`), correlationId);
    }
    throw error;
  }
}
