/**
 * MCP profiles: the full catalog at `/mcp`, and at `/mcp/core` the lifecycle
 * tools an assistant with a small context needs (plan, pull a step, submit it,
 * pause for a person, check progress, search earlier research, store the
 * deliverable; findings travel in step results). Same auth, same operations, same prompts and resources;
 * the core listing shows each tool's core description and schema (see the
 * operation's `core` field). A call to a tool outside the profile is refused.
 */
export type McpProfile = "full" | "core";

export const CORE_TOOLS: ReadonlySet<string> = new Set([
  "create_research_plan",
  "get_next_step",
  "submit_step_result",
  "request_user_review",
  "get_plan_status",
  "list_active_plans",
  "search_sources",
  "store_research_output",
]);

/** The profile a /mcp path serves, or null for a path that is not an MCP endpoint. */
export function profileOf(pathname: string): McpProfile | null {
  if (pathname === "/mcp" || pathname === "/mcp/") return "full";
  if (pathname === "/mcp/core" || pathname === "/mcp/core/") return "core";
  return null;
}

/**
 * Tools the core profile lists for the plan view only (MCP Apps `_meta.ui.visibility: ["app"]`):
 * a host that knows visibility keeps them out of the model's list, so the small-context model pays
 * nothing for them, while the view can still answer the reviews it shows. A host that does not know
 * visibility lists them like any other tool; they work the same either way.
 */
export const CORE_APP_ONLY_TOOLS: ReadonlySet<string> = new Set(["submit_review"]);

export const inProfile = (profile: McpProfile, toolName: string): boolean =>
  profile === "full" || CORE_TOOLS.has(toolName) || CORE_APP_ONLY_TOOLS.has(toolName);

/** Whether a host that knows MCP Apps visibility should keep this tool out of the model's list. */
export const appOnly = (profile: McpProfile, toolName: string): boolean => profile === "core" && CORE_APP_ONLY_TOOLS.has(toolName);
