import { type OrgAdminPlacement, placeForOrgAdmin } from "../../domain/org-data/members";

/**
 * Places one member record of an org admin's import (policy:
 * src/domain/org-data/members.ts). The e-mail is looked up among the members
 * of the importing org only, so neither the answer nor its timing depends on
 * whether the e-mail has an account elsewhere. Writes nothing: a restored
 * person is already a member, with the role they have.
 */
export async function placeImportedMember(directory: D1Database, orgId: string, email: string): Promise<OrgAdminPlacement> {
  const member = await directory
    .prepare("SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND u.email = ?")
    .bind(orgId, email)
    .first<{ user_id: string }>();
  return placeForOrgAdmin(member ? { userId: member.user_id } : null);
}
