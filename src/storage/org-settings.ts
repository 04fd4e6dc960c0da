import { APPROVAL_MODES, type ApprovalMode } from "../domain/plans/approval";
import type { OrgSettings } from "../domain/ports";

/** The org's settings, in its row of the directory's `orgs` table. */
export function d1OrgSettings(directory: D1Database): OrgSettings {
  return {
    async planApproval(orgId) {
      const row = await directory.prepare("SELECT plan_approval FROM orgs WHERE id = ?").bind(orgId).first<{ plan_approval: string }>();
      // A value this version does not know (written by a newer one) reads as the safe default: ask first.
      const value = row?.plan_approval ?? "optional";
      return (APPROVAL_MODES as readonly string[]).includes(value) ? (value as ApprovalMode) : "required";
    },
    async setPlanApproval(orgId, mode) {
      await directory.prepare("UPDATE orgs SET plan_approval = ? WHERE id = ?").bind(mode, orgId).run();
    },
  };
}
