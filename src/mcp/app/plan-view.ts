// The page minified from its readable source, plan-view.html (scripts/lib/plan-view-page.mjs; a unit test keeps it current).
import html from "./plan-view.min.html";

/**
 * The plan as an MCP App (`io.modelcontextprotocol/ui`): one self-contained
 * page (no external origins, no dependencies) that hosts such as Claude and
 * ChatGPT render beside the result of the tools that link it. It shows what the
 * dashboard's plan page shows at a glance and answers pending reviews through
 * the host's `tools/call` (submit_review, under the person's own token; an
 * approval with its steps edited or removed and its budget set), then tells the
 * model (`ui/update-model-context`). It shows the plan's sources as Cairn checked
 * them (get_evidence_ledger): counts by status, and each one not verified with
 * its closest passage, as text. It offers full screen where the
 * host does, and keeps no state of its own: each load rebuilds from the tool's
 * input and result, then reads the plan as it is now through get_plan_status.
 * Clients without MCP Apps ignore the link and read the same results as before.
 */
export const PLAN_VIEW_URI = "ui://cairn/plan-view.html";
/** The MCP Apps extension's identifier in capabilities (the server declares it; a host that renders apps does too). */
export const MCP_APPS_EXTENSION_ID = "io.modelcontextprotocol/ui";
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
export const PLAN_VIEW_HTML: string = html;

/** The resource's `_meta.ui`: an empty allow-list (the page loads nothing from anywhere) and a border. */
export const PLAN_VIEW_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } as const;

export const planViewResource = {
  uri: PLAN_VIEW_URI,
  name: "plan-view",
  title: "Research plan view",
  description: "Interactive plan progress and reviews, for hosts that render MCP Apps",
  mimeType: MCP_APP_MIME_TYPE,
  _meta: PLAN_VIEW_META,
};
