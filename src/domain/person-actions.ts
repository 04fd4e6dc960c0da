import { type CairnError, forbidden } from "./errors";
import type { ApprovalMode } from "./plans/approval";
import type { Principal } from "./principal";
import type { SharingMode } from "./shares";
import type { SourcePolicy } from "./sources/source-policy";

/**
 * Is this a person's decision? The assistant holds the same OAuth token or API key as the person it works for, so
 * the actions below are taken only through a channel the assistant cannot drive: a person signed in to the
 * dashboard (its session, and the form's CSRF token), or an API key an admin granted the person scope for an
 * integration that asks people. An OAuth token never qualifies (OAuth clients are assistants), nor does a key
 * without the person scope, whatever else it holds (`org:admin` included). Every surface (REST, MCP, dashboard)
 * asks `assertPerson`; none decides on its own.
 */

/** The admin-only scope of an integration acting for people. */
export const PERSON_SCOPE = "plans:approve";

/** The person-level actions, each with what a refusal calls it. */
export const PERSON_ACTIONS = {
  approve_plan: "Approving or revising a plan's approval",
  raise_budget: "Raising a plan's budget at its budget review",
  lower_protection: "Lowering or lifting a protection (the organization's plan approval, approvers, sharing or source policy)",
  share_outside: "Publishing a deliverable outside the organization (a share link)",
  outside_recipient: "Adding an e-mail recipient who is not a member of the organization",
  schedule_with_approval: "Scheduling a plan whose runs need approval",
  change_sign_in: "Changing how the organization's people sign in (single sign-on)",
  reassign_review: "Handing a waiting review to another person (or to no one)",
} as const;

export type PersonAction = keyof typeof PERSON_ACTIONS;

/** What the check reads of a caller: the principal its credential established. */
export type Caller = Pick<Principal, "scopes" | "clientId" | "apiKeyId" | "signedIn">;

/** A person: signed in to the dashboard, or an API key (never an OAuth token) carrying the person scope. */
export function isPerson(caller: Caller): boolean {
  if (caller.signedIn === true) return true;
  return caller.apiKeyId !== undefined && caller.clientId === undefined && caller.scopes.includes(PERSON_SCOPE);
}

/**
 * The refusal of a person-level action to a caller that is not a person, or null. `url`: the dashboard page where a
 * person does it, named in the message and sent with the error.
 */
export function personRefusal(caller: Caller, action: PersonAction, url?: string): CairnError | null {
  return isPerson(caller) ? null : notAPerson(action, url);
}

/** The refusal itself, for a check that already knows the caller is not a person (the plan's state machine). */
export function notAPerson(action: PersonAction, url?: string): CairnError {
  return forbidden(
    `${PERSON_ACTIONS[action]} is a person's decision: a person does it signed in to the dashboard (${url ?? "/dashboard"}). ` +
      `An assistant's credential cannot: not an OAuth token, nor an API key without the ${PERSON_SCOPE} scope, whatever else it holds; ` +
      `an admin can grant ${PERSON_SCOPE} to an API key for an integration acting for people.`,
    url ? { url } : {},
  );
}

export function assertPerson(caller: Caller, action: PersonAction, url?: string): void {
  const refused = personRefusal(caller, action, url);
  if (refused) throw refused;
}

// ---------------------------------------------------------------- what lowers a protection

/** An approver group widens when someone new decides, or when it is lifted (empty: anyone who may answer decides). */
function widensApprovers(before: readonly string[], after: readonly string[]): boolean {
  if (before.length === 0) return false;
  return after.length === 0 || after.some((email) => !before.includes(email));
}

const SHARING_OPENNESS: Record<SharingMode, number> = { off: 0, admins: 1, members: 2 };

/**
 * Whether a settings change lowers or lifts a protection: plan approval from required to optional, the approver group
 * widened or lifted (more people, or anyone, decide), sharing opened to more people, a blocked domain unblocked.
 * (Preferring a domain only changes what the ledger counts.) Tightening is anyone's with the admin scope; loosening is
 * a person's.
 */
export function loosensProtection(
  before: { planApproval: ApprovalMode; sharing: SharingMode; sourcePolicy: SourcePolicy; approvers?: readonly string[] },
  after: { planApproval: ApprovalMode; sharing: SharingMode; sourcePolicy: SourcePolicy; approvers?: readonly string[] },
): boolean {
  if (before.planApproval === "required" && after.planApproval !== "required") return true;
  if (widensApprovers(before.approvers ?? [], after.approvers ?? [])) return true;
  if (SHARING_OPENNESS[after.sharing] > SHARING_OPENNESS[before.sharing]) return true;
  // A domain still blocked by itself or by a parent domain (example.com covers www.example.com) stays blocked.
  const stillBlocked = (domain: string) => after.sourcePolicy.blockedDomains.some((blocked) => domain === blocked || domain.endsWith(`.${blocked}`));
  return before.sourcePolicy.blockedDomains.some((domain) => !stillBlocked(domain));
}
