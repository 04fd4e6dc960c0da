import { isCairnError, validationError } from "../domain/errors";
import { MAX_LINE_BYTES } from "../domain/org-data/format";
import { type OrgSettingsValues, parseExportedSettings, readSettings } from "../domain/org-settings";
import { assertPerson, loosensProtection } from "../domain/person-actions";
import type { Principal } from "../domain/principal";
import type { Env } from "../env";
import { eraseOrg } from "../platform/org-data/erase";
import { exportOrg, exportStream } from "../platform/org-data/export";
import { importOrg } from "../platform/org-data/import";
import { streamLines } from "../platform/org-data/lines";
import { readBoundedText } from "../platform/request-body";
import { publicOrigin, webServices } from "../platform/runtime";
import { problemResponse } from "./problem";
import { adminGate, type OwnRoute } from "./route-gates";

/**
 * The org's data as a whole, for its admins (org:admin, and the admin role):
 *   GET    /org/export[?toolCalls=true]  the org as NDJSON, streamed
 *   POST   /org/import                   an export into this org, which must hold no research yet
 *   DELETE /org  {"confirm":"<slug>"}    erase the org and everything of it
 * Not MCP tools: an assistant has no business moving or erasing an org.
 * Returns null for other paths.
 */
export const orgDataRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const route = relativePath.replace(/\/$/, "");
  const expected = route === "/org/export" ? "GET" : route === "/org/import" ? "POST" : route === "/org" ? "DELETE" : null;
  if (!expected) return null;
  const refused = adminGate(request, [expected], ctx, principal, correlationId, {
    scope: "Moving or erasing an organization's data needs the org:admin scope",
    role: "Only the organization's admins can export, import or erase its data.",
    // Import and erasure are what the write gate waits on: each checks the org's state itself.
    writeGate: false,
  });
  if (refused) return refused;
  try {
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
      const summary = await importOrg(env, principal.orgId, settingsChecked(env, principal, streamLines(request.body, MAX_LINE_BYTES)));
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
};

/** The org data routes in the OpenAPI document. */
export function orgDataOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const common = { security: [{ oauth2: ["org:admin"] }, { apiKey: [] }], "x-required-scope": "org:admin" };
  const errors = { "401": { description: "Missing, expired or revoked credential" }, "403": problem("Not an admin of the organization, or no org:admin scope") };
  return {
    [`${base}/org/export`]: {
      get: {
        operationId: "export_org",
        summary: "Export the organization",
        description:
          "Everything of the organization as NDJSON, streamed: a header line, members (no password hashes), every stored row (no key hashes), each plan's and search session's state, and an end line with counts (absent when the stream broke off).",
        ...common,
        parameters: [{ name: "toolCalls", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] }, description: "Include the tool-call log" }],
        responses: { "200": { description: "The export", content: { "application/x-ndjson": { schema: { type: "string" } } } }, ...errors },
      },
    },
    [`${base}/org/import`]: {
      post: {
        operationId: "import_org",
        summary: "Import an export into this organization",
        description:
          "The organization must hold no research yet. Every record must pass what the operation that writes it accepts; server-assigned columns (sequence numbers) are refused, not taken from the file. Ids are renewed consistently. Member records are restored only for people already in the organization, whose roles stay as they are; the others are counted as not restored (members: {restored, notRestored}), and no one is added. API keys are not recreated; the audit trail and tool-call log are restored only into an organization without its own. A plan that can still spend where approval applies (this organization's setting before the import or the file's, or the plan's own) arrives waiting for a person's approval here, whatever approval the file records (plansAwaitingApproval counts them). While it runs, the organization's writes are refused (import_in_progress, with Retry-After); reads go on. A bad or incomplete file takes back what the import wrote, and only that. Each organization has a daily import budget of records and bytes.",
        ...common,
        requestBody: { required: true, content: { "application/x-ndjson": { schema: { type: "string" } } } },
        responses: {
          "200": { description: "What was imported", content: { "application/json": { schema: { type: "object", properties: { imported: { type: "object" } } } } } },
          "400": problem("A line is not valid (the message names the line and column), a key appears twice, or the file is incomplete"),
          "409": problem("The organization already holds research (conflict), or its own audit trail or tool-call log where the file carries one; another import into it is running (import_in_progress, with Retry-After), or its erasure has begun (org_erasing)"),
          "413": problem("A line is longer than 16 MiB"),
          "429": problem("The organization's daily import budget is spent (Retry-After: the next UTC day)"),
          ...errors,
        },
      },
    },
    [`${base}/org`]: {
      delete: {
        operationId: "erase_org",
        summary: "Erase the organization",
        description:
          "Closes the organization first (every other call is answered org_erasing from here on; its members' grants and sessions for it and its API keys are revoked), then erases every record of it, its plans' and sessions' storage, and the organization itself. Confirm with its slug. An interrupted erasure is finished by sending it again.",
        ...common,
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", required: ["confirm"], properties: { confirm: { type: "string", description: "The organization's slug" } } } } },
        },
        responses: {
          "200": { description: "What was erased" },
          "400": problem("The confirmation is not the organization's slug"),
          "409": problem("An import into the organization is running (import_in_progress, with Retry-After)"),
          ...errors,
        },
      },
    },
  };
}

/** The settings a file's first line (its header) carries, or null: a line that is not a valid header is the importer's to refuse. */
function headerSettings(line: string): OrgSettingsValues | null {
  try {
    const record = JSON.parse(line) as { type?: unknown; settings?: unknown };
    return record.type === "header" && record.settings !== undefined ? parseExportedSettings(record.settings, "Line 1") : null;
  } catch {
    return null;
  }
}

/**
 * An import's lines, its header checked first: an import restores the file's settings, and settings looser than the
 * org's (approval no longer required, sharing opened, a domain unblocked) lower a protection, which is a person's
 * decision. Refused at line 1, before anything is written, as a bad header is.
 */
async function* settingsChecked(env: Env, principal: Principal, lines: AsyncIterable<string>): AsyncIterable<string> {
  let first = true;
  for await (const line of lines) {
    if (first) {
      first = false;
      const settings = headerSettings(line);
      if (settings) {
        const { services } = await webServices(env, principal.orgId);
        if (loosensProtection(await readSettings(services.orgSettings, principal.orgId), settings)) {
          assertPerson(principal, "lower_protection", `${publicOrigin(env)}/dashboard/admin/settings`);
        }
      }
    }
    yield line;
  }
}
