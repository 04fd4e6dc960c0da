/**
 * Whom an import places in the importing org. An import file is written by
 * whoever uploads it, so its member records are claims, not authority:
 *
 * - An org admin's import (REST, dashboard) restores the membership of a
 *   person the file lists only when that person already belongs to the
 *   importing org. Their id in the file then stands for them here, and their
 *   role stays the one they have: a file neither raises nor lowers a role.
 *   Everyone else is "not restored", and the answer only counts them: it never
 *   says whether an e-mail has an account here or anywhere else.
 * - The operator's CLI, which holds authority over the whole deployment, may
 *   restore members by e-mail when asked to (`import --restore-members`): an
 *   account with the e-mail joins with the file's role, an unknown e-mail gets
 *   an account without a usable password, a person already in the org keeps
 *   their role.
 *
 * Pure: the adapters are src/platform/org-data/members.ts and scripts/lib/org-data.mjs.
 * This module imports only types, so the operator CLI loads it directly.
 */

/** Roles as in src/domain/scopes.ts (spelled out so the CLI can load this file with nothing else). */
type Role = "member" | "admin";

/** What an org admin's import says about the people its file lists. */
export interface ImportedMembers {
  /** Listed people who already belong to the org: their records are theirs again. */
  restored: number;
  /** Every other member record: not placed, not looked up beyond this org. */
  notRestored: number;
}

export type OrgAdminPlacement = { kind: "restored"; userId: string } | { kind: "not_restored" };

/** An org admin's import: `current` is the listed e-mail's membership of the importing org, if any. */
export function placeForOrgAdmin(current: { userId: string } | null): OrgAdminPlacement {
  return current ? { kind: "restored", userId: current.userId } : { kind: "not_restored" };
}

export function countPlacement(members: ImportedMembers, placement: OrgAdminPlacement): ImportedMembers {
  return placement.kind === "restored" ? { ...members, restored: members.restored + 1 } : { ...members, notRestored: members.notRestored + 1 };
}

export type OperatorPlacement =
  /** Already in the org: left as they are, role included. */
  | { kind: "already_member"; userId: string }
  /** An account with the e-mail exists: it joins the org with the file's role. */
  | { kind: "matched"; userId: string; role: Role }
  /** No account with the e-mail: one is created without a usable password, and joins with the file's role. */
  | { kind: "created"; role: Role };

/** The operator's `--restore-members`: `account` is the deployment's account with the e-mail, `membership` its membership of the org. */
export function placeForOperator(fileRole: Role, account: { userId: string } | null, membership: { role: Role } | null): OperatorPlacement {
  if (!account) return { kind: "created", role: fileRole };
  if (membership) return { kind: "already_member", userId: account.userId };
  return { kind: "matched", userId: account.userId, role: fileRole };
}

/** The password of an account an operator's import created: no password verifies against it (set one with `user add --reset-password`). */
export const IMPORTED_ACCOUNT_PASSWORD = "disabled$imported";

/**
 * The password of the account the operator CLI makes for one command (export,
 * import, erasure go through the Worker with its temporary key) and removes
 * afterwards. No one signs in to it, and an export leaves it and its key out.
 */
export const OPERATOR_ACCOUNT_PASSWORD = "disabled$operator-cli";
