import { forbidden } from "../errors";
import { hasScope, type Scope } from "../scopes";

/**
 * Some changes are a person's to make, never an assistant's: who signs in to the org (single sign-on). A person
 * acts through the dashboard (a signed-in session whose form carried its CSRF token), or through a credential an
 * admin granted the `plans:approve` person scope for an integration acting for people. Every other credential
 * (an assistant's OAuth token, an ordinary API key) is refused, whatever its role.
 */
export type PersonLevelCaller = { via: "dashboard"; csrfChecked: boolean } | { via: "credential"; scopes: readonly Scope[] };

export const PERSON_SCOPE: Scope = "plans:approve";

export function assertPersonLevel(caller: PersonLevelCaller, what: string): void {
  if (caller.via === "dashboard" ? caller.csrfChecked : hasScope(caller.scopes, PERSON_SCOPE)) return;
  throw forbidden(`${what} is a person's change: make it in the dashboard, or with a credential an admin granted the ${PERSON_SCOPE} scope (an assistant's credential cannot).`);
}
