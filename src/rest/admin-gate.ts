import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { CairnError, forbidden } from "../domain/errors";
import type { Principal } from "../domain/principal";
import { hasScope } from "../domain/scopes";
import { insufficientScopeResponse, problemResponse } from "./problem";

/**
 * The gate in front of an org admin's route: the method (405 with `Allow`), the
 * org:admin scope (403 with the step-up challenge MCP and OAuth clients act on)
 * and the admin role (403). Null when the caller may go on.
 */
export function adminGate(
  request: Request,
  methods: readonly string[],
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
  refusal: { scope: string; role: string },
): Response | null {
  if (!methods.includes(request.method)) {
    return problemResponse(new CairnError("method_not_allowed", `${request.method} is not allowed here; use ${methods.join(", ")}.`, { allow: [...methods] }), correlationId);
  }
  if (!hasScope(principal.scopes, "org:admin")) return insufficientScopeResponse(ctx.auth, ["org:admin"], refusal.scope, correlationId);
  if (principal.role !== "admin") return problemResponse(forbidden(refusal.role), correlationId);
  return null;
}
