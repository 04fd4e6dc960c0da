/** The OAuth scopes Cairn grants. Operations declare one; tokens carry several. */
export const SCOPES = ["research:read", "research:write", "org:admin"] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "research:read": "Read research plans, executions, artifacts and outputs of your organization",
  "research:write": "Create and update research plans, executions, artifacts and outputs",
  "org:admin": "Manage members and API keys of your organization",
};

/** The scopes a client gets when it asks for none (ChatGPT re-connects without `scope`). */
export const DEFAULT_SCOPES: readonly Scope[] = ["research:read", "research:write"];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

export type Role = "member" | "admin";

export const ROLES: readonly Role[] = ["member", "admin"];

/** Scopes a member of the given role may hold. `org:admin` is for admins only. */
export function scopesAllowedForRole(role: Role): Scope[] {
  return role === "admin" ? [...SCOPES] : ["research:read", "research:write"];
}

/**
 * Whether `granted` satisfies `required`. `research:write` implies `research:read`
 * (MCP asks servers to account for scope hierarchies); `org:admin` implies nothing else.
 */
export function hasScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  return required === "research:read" && granted.includes("research:write");
}
