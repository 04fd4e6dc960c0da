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
export function importedSettingsStatement(directory: D1Database, orgId: string, lock: number, settings: OrgSettingsValues): D1PreparedStatement {
  return directory
    .prepare("UPDATE orgs SET plan_approval = ?1, source_blocked_domains = ?2, source_preferred_domains = ?3, sharing = ?6, locale = ?7 WHERE id = ?4 AND importing_since = ?5")
    .bind(settings.planApproval, JSON.stringify(settings.sourcePolicy.blockedDomains), JSON.stringify(settings.sourcePolicy.preferredDomains), orgId, lock, settings.sharing, settings.locale ?? null);
}
