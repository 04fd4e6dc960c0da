/**
 * Bounds on a Dynamic Client Registration (RFC 7591) request: every field a
 * registering client controls is stored and later shown on the consent page,
 * so none may be unbounded. Pure: the adapter reads the body and answers.
 */
export const REGISTRATION_LIMITS = {
  bodyBytes: 16 * 1024,
  clientNameChars: 200,
  redirectUris: 10,
  urlChars: 2_000,
  /** Any other string field (software_id, scope, token_endpoint_auth_method, …). */
  otherStringChars: 2_000,
  /** Items of any other list (grant_types, response_types, contacts). */
  listItems: 10,
  listItemChars: 200,
  fields: 30,
} as const;

const URL_FIELDS = new Set(["client_uri", "logo_uri", "tos_uri", "policy_uri", "jwks_uri", "initiate_login_uri"]);

/** What is wrong with a registration document, in RFC 7591's terms (`invalid_redirect_uri`, `invalid_client_metadata`), or null. */
export function registrationProblem(document: unknown): { error: "invalid_redirect_uri" | "invalid_client_metadata"; description: string } | null {
  const limits = REGISTRATION_LIMITS;
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    return { error: "invalid_client_metadata", description: "The registration must be a JSON object." };
  }
  const entries = Object.entries(document);
  if (entries.length > limits.fields) return { error: "invalid_client_metadata", description: `At most ${limits.fields} fields.` };
  for (const [field, value] of entries) {
    if (field === "redirect_uris") {
      if (!Array.isArray(value)) return { error: "invalid_redirect_uri", description: "redirect_uris must be a list." };
      if (value.length > limits.redirectUris) return { error: "invalid_redirect_uri", description: `At most ${limits.redirectUris} redirect_uris.` };
      if (value.some((uri) => typeof uri !== "string" || uri.length > limits.urlChars)) {
        return { error: "invalid_redirect_uri", description: `Each redirect URI is a string of at most ${limits.urlChars} characters.` };
      }
      continue;
    }
    if (field === "client_name" && typeof value === "string" && value.length > limits.clientNameChars) {
      return { error: "invalid_client_metadata", description: `client_name is at most ${limits.clientNameChars} characters.` };
    }
    const max = URL_FIELDS.has(field) ? limits.urlChars : limits.otherStringChars;
    if (typeof value === "string" && value.length > max) return { error: "invalid_client_metadata", description: `${field.slice(0, 60)} is at most ${max} characters.` };
    if (Array.isArray(value)) {
      if (value.length > limits.listItems) return { error: "invalid_client_metadata", description: `${field.slice(0, 60)} has at most ${limits.listItems} items.` };
      if (value.some((item) => typeof item !== "string" || item.length > limits.listItemChars)) {
        return { error: "invalid_client_metadata", description: `Each item of ${field.slice(0, 60)} is a string of at most ${limits.listItemChars} characters.` };
      }
    }
    if (typeof value === "object" && value !== null && !Array.isArray(value) && JSON.stringify(value).length > limits.otherStringChars * 4) {
      return { error: "invalid_client_metadata", description: `${field.slice(0, 60)} is too large.` };
    }
  }
  return null;
}
