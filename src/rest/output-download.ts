import { notFound } from "../domain/errors";
import { ID_PATTERN } from "../domain/ids";
import { DOWNLOAD_CONTENT_TYPES, DOWNLOAD_FORMATS, parseDownloadFormat } from "../domain/research/downloads";
import type { Scope } from "../domain/scopes";
import { webServices } from "../platform/runtime";
import { downloadFor, downloadResponse } from "../web/downloads";
import { answering, memberGate, type OwnRoute } from "./route-gates";

/**
 * A deliverable as a file: `GET /outputs/{outputId}/download?format=md|html|docx|pdf` → the file as an attachment
 * (pdf: printed by the Browser Rendering binding; 501 naming it when the deployment has none, 503 when it is busy).
 * Not an MCP tool (an assistant reads the deliverable with get_research_output; a file is for people and scripts).
 * Another org's deliverable is the same 404 as none.
 */

const ROUTE = /^\/outputs\/([^/]+)\/download\/?$/;
const SCOPE: Scope = "research:read";

export const outputDownloadRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const match = ROUTE.exec(relativePath);
  if (!match) return null;
  const refused = memberGate(request, ["GET"], ctx, principal, correlationId, (scope) => `Downloads need the ${scope} scope`);
  if (refused) return refused;
  return answering(correlationId, async () => {
    const format = parseDownloadFormat(new URL(request.url).searchParams.get("format"));
    const outputId = match[1] as string;
    if (!ID_PATTERN.test(outputId)) throw notFound("research output", outputId.slice(0, 64));
    const { services, home, now } = await webServices(env, principal.orgId);
    const download = await downloadFor(services, home, principal.orgId, outputId, format, now(), env.BROWSER);
    if (!download) throw notFound("research output", outputId);
    return downloadResponse(download);
  });
};

/** The download route in the OpenAPI document. */
export function outputDownloadOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const file = { type: "string", format: "binary" };
  return {
    [`${base}/outputs/{outputId}/download`]: {
      get: {
        operationId: "download_research_output",
        summary: "Download a deliverable",
        description:
          "The deliverable as a file (Content-Disposition: attachment): md (its Markdown with a Sources list), html (one standalone file with a print " +
          "stylesheet: the browser's Save as PDF gives a clean document), docx, or pdf (that HTML file printed by the server's browser on A4 or Letter by " +
          "the organization's locale, with an outline of its headings, live links and page numbers). Each lists the sources it cites with their verification status and when last checked.",
        security: [{ oauth2: [SCOPE] }, { apiKey: [] }],
        "x-required-scope": SCOPE,
        parameters: [
          { name: "outputId", in: "path", required: true, schema: { type: "string" } },
          { name: "format", in: "query", required: true, schema: { type: "string", enum: [...DOWNLOAD_FORMATS] } },
        ],
        responses: {
          "200": { description: "The file", content: Object.fromEntries(DOWNLOAD_FORMATS.map((f) => [DOWNLOAD_CONTENT_TYPES[f].split(";")[0], { schema: file }])) },
          "400": problem("No format, or not md, html, docx or pdf"),
          "401": { description: "Missing, expired or revoked credential" },
          "403": problem("The credential lacks the research:read scope"),
          "404": problem("No deliverable with that id in the organization"),
          "429": problem("The organization already has 2 HTML, DOCX or PDF downloads being made: try again after Retry-After"),
          "501": problem("pdf: the server has no Browser Rendering binding (BROWSER)"),
          "503": problem("pdf: the browser is busy or printing took too long: try again after Retry-After"),
        },
      },
    },
  };
}
