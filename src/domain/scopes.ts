/** The OAuth scopes Cairn grants. Operations declare one; tokens carry several. */
export const SCOPES = ["research:read", "research:write", "org:admin", "plans:approve"] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "research:read": "Read research plans, executions, artifacts and outputs of your organization",
  "research:write": "Create and update research plans, executions, artifacts and outputs",
  "org:admin": "Manage members and API keys of your organization",
  "plans:approve": "Approve plans as a person: for an integration that asks people, never for an assistant",
};

/**
 * The scopes an OAuth client may be granted. OAuth clients are assistants, and an assistant's approval is not a
 * person's: `plans:approve` goes only on an API key an admin creates for an integration acting for people.
 */
export const OAUTH_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== "plans:approve");

export const isOAuthScope = (value: string): value is Scope => (OAUTH_SCOPES as readonly string[]).includes(value);

/** The scopes a client gets when it asks for none (ChatGPT re-connects without `scope`). */
export const DEFAULT_SCOPES: readonly Scope[] = ["research:read", "research:write"];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

export type Role = "member" | "admin";

export const ROLES: readonly Role[] = ["member", "admin"];

/** Scopes a member of the given role may hold. `org:admin` and `plans:approve` are for admins only. */
export function scopesAllowedForRole(role: Role): Scope[] {
  return role === "admin" ? [...SCOPES] : ["research:read", "research:write"];
}

/**
 * Whether `granted` satisfies `required`. `research:write` implies `research:read`
 * (MCP asks servers to account for scope hierarchies); `org:admin` and `plans:approve` imply nothing else.
 */
export function hasScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  return required === "research:read" && granted.includes("research:write");
}
