import { describe, expect, it } from "vitest";
import { ERROR_CODES, httpStatusOf } from "./errors";
import { hasScope, scopesAllowedForRole } from "./scopes";

describe("scopes", () => {
  it("lets research:write imply research:read, and nothing imply org:admin", () => {
    expect(hasScope(["research:write"], "research:read")).toBe(true);
    expect(hasScope(["research:read"], "research:write")).toBe(false);
    expect(hasScope(["research:read", "research:write"], "org:admin")).toBe(false);
    expect(hasScope(["org:admin"], "research:read")).toBe(false);
  });

  it("keeps org:admin for admins", () => {
    expect(scopesAllowedForRole("member")).not.toContain("org:admin");
    expect(scopesAllowedForRole("admin")).toContain("org:admin");
  });
});

describe("error codes", () => {
  it("map to an HTTP status each", () => {
    const statuses = Object.fromEntries(ERROR_CODES.map((code) => [code, httpStatusOf(code)]));
    expect(statuses).toEqual({
      validation: 400,
      not_found: 404,
      conflict: 409,
      import_in_progress: 409,
      org_erasing: 409,
      invalid_transition: 409,
      forbidden: 403,
      insufficient_scope: 403,
      payload_too_large: 413,
      method_not_allowed: 405,
      rate_limited: 429,
      sources_pending: 409,
      not_configured: 501,
      unavailable: 503,
      internal: 500,
    });
  });
});
