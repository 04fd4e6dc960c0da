import type { OrgMarks } from "./org-data/write-gate";
import type { Role, Scope } from "./scopes";

/**
 * Who is calling, as established by a verified credential. Org and user come
 * only from here, never from tool arguments.
 */
export interface Principal {
  orgId: string;
  userId: string;
  role: Role;
  scopes: readonly Scope[];
  /** OAuth client id when the credential is an OAuth access token. */
  clientId?: string;
  /** API key id when the credential is an API key. */
  apiKeyId?: string;
  /**
   * A person signed in to the dashboard, its session and the form's CSRF token checked: set only by the dashboard,
   * never from a credential (see domain/person-actions.ts).
   */
  signedIn?: true;
  /**
   * The org's import and erasure marks as admission read them (with the membership, at most its
   * cache bound old): every write is refused while either holds (see domain/org-data/write-gate.ts).
   */
  orgMarks?: OrgMarks;
}
