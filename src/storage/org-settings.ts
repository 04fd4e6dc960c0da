import { APPROVAL_MODES, type ApprovalMode } from "../domain/plans/approval";
import type { OrgSettingsValues } from "../domain/org-settings";
import type { OrgSettings } from "../domain/ports";
import { isSharingMode } from "../domain/shares";
import { normalizeDomain, type SourcePolicy } from "../domain/sources/source-policy";

/** A stored list, read defensively: what does not parse, or no longer normalizes, is left out rather than failing the read. */
function domainList(text: string | null | undefined): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry !== "string") return [];
    const normalized = normalizeDomain(entry);
    return normalized.ok ? [normalized.domain] : [];
  });
}

/**
 * Stores the approver group given by e-mail as the user ids of the org's members among them, in the order given
 * (`also`: a further condition on the org's row, as an import's lock).
 */
function approversStatement(directory: D1Database, orgId: string, emails: readonly string[], also: string): D1PreparedStatement {
  return directory
    .prepare(
      `UPDATE orgs SET approvers = (SELECT COALESCE(json_group_array(id), '[]') FROM (SELECT u.id FROM json_each(?2) j JOIN users u ON u.email = j.value
          JOIN memberships m ON m.user_id = u.id AND m.org_id = ?1 ORDER BY j.key)) WHERE id = ?1${also}`,
    )
    .bind(orgId, JSON.stringify(emails));
}

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
    async sourcePolicy(orgId) {
      const row = await directory
        .prepare("SELECT source_blocked_domains, source_preferred_domains FROM orgs WHERE id = ?")
        .bind(orgId)
        .first<{ source_blocked_domains: string; source_preferred_domains: string }>();
      return { blockedDomains: domainList(row?.source_blocked_domains), preferredDomains: domainList(row?.source_preferred_domains) };
    },
    async setSourcePolicy(orgId, policy: SourcePolicy) {
      await directory
        .prepare("UPDATE orgs SET source_blocked_domains = ?, source_preferred_domains = ? WHERE id = ?")
        .bind(JSON.stringify(policy.blockedDomains), JSON.stringify(policy.preferredDomains), orgId)
        .run();
    },
    async sharing(orgId) {
      const row = await directory.prepare("SELECT sharing FROM orgs WHERE id = ?").bind(orgId).first<{ sharing: string }>();
      // A value this version does not know (written by a newer one) reads as the safe choice: no sharing.
      const value = row?.sharing ?? "members";
      return isSharingMode(value) ? value : "off";
    },
    async setSharing(orgId, mode) {
      await directory.prepare("UPDATE orgs SET sharing = ? WHERE id = ?").bind(mode, orgId).run();
    },
    async approvers(orgId) {
      // Joined through the memberships: a person who left the org (or was erased) is no longer an approver.
      const { results } = await directory
        .prepare(
          `SELECT u.id, u.email, u.display_name FROM orgs o, json_each(CASE WHEN json_valid(o.approvers) THEN o.approvers ELSE '[]' END) j
             JOIN memberships m ON m.org_id = o.id AND m.user_id = j.value JOIN users u ON u.id = m.user_id
            WHERE o.id = ? ORDER BY j.key`,
        )
        .bind(orgId)
        .all<{ id: string; email: string; display_name: string }>();
      return results.map((row) => ({ userId: row.id, email: row.email, name: row.display_name }));
    },
    async setApprovers(orgId, emails) {
      await approversStatement(directory, orgId, emails, "").run();
    },
    async locale(orgId) {
      const row = await directory.prepare("SELECT locale FROM orgs WHERE id = ?").bind(orgId).first<{ locale: string | null }>();
      return row?.locale ?? null;
    },
    async setLocale(orgId, locale) {
      await directory.prepare("UPDATE orgs SET locale = ? WHERE id = ?").bind(locale, orgId).run();
    },
  };
}

/**
 * The statement that gives an org the settings an import restores, taking effect only while the import holding
 * `lock` still holds the org (it runs in the batch that ends the import, so the settings come with the rows or not
 * at all).
 */
export function importedSettingsStatements(directory: D1Database, orgId: string, lock: number, settings: OrgSettingsValues): D1PreparedStatement[] {
  return [
    directory
      .prepare("UPDATE orgs SET plan_approval = ?1, source_blocked_domains = ?2, source_preferred_domains = ?3, sharing = ?6, locale = ?7 WHERE id = ?4 AND importing_since = ?5")
      .bind(settings.planApproval, JSON.stringify(settings.sourcePolicy.blockedDomains), JSON.stringify(settings.sourcePolicy.preferredDomains), orgId, lock, settings.sharing, settings.locale ?? null),
    // The approvers the file names who are members here (an import places no one: src/domain/org-data/members.ts).
    approversStatement(directory, orgId, settings.approvers, ` AND importing_since = ${Number(lock)}`),
  ];
}
