import { type ValidationIssue, validationError } from "./errors";
import { canonicalLocaleTag } from "./locale-tag";
import type { OrgMembers, OrgSettings } from "./ports";
import { APPROVAL_MODES, type ApprovalMode } from "./plans/approval";
import { isSharingMode, SHARING_MODES, type SharingMode } from "./shares";
import { checkSourcePolicy, SOURCE_POLICY_LISTS, type SourcePolicy } from "./sources/source-policy";

/**
 * The org's settings as its admins see and change them (REST, dashboard, CLI) and as an org export carries them:
 * the default approval of new plans, the source policy, who may share deliverables by link, who approves plans, and
 * the org's locale.
 */
export interface OrgSettingsValues {
  planApproval: ApprovalMode;
  sourcePolicy: SourcePolicy;
  sharing: SharingMode;
  /** The approver group by e-mail (lower case): the members who approve plans; empty, anyone who may. */
  approvers: string[];
  /** A BCP 47 tag ("en-US", "ja-JP"): the paper of PDF downloads (research/paper-size.ts). Absent until an admin sets one. */
  locale?: string;
}

const FIELDS = ["planApproval", "sourcePolicy", "sharing", "approvers", "locale"];

/** An approver group is a few named people, not a mailing list. */
export const MAX_APPROVERS = 20;

/** A list of member e-mails (approvers, a review's assignee), lower case, each once; not yet checked against the members. */
function emailListOf(value: unknown, path: string): string[] | ValidationIssue {
  if (!Array.isArray(value) || value.length > MAX_APPROVERS) return { path, message: `A list of up to ${MAX_APPROVERS} member e-mails` };
  const emails: string[] = [];
  for (const entry of value) {
    if (typeof entry !== "string" || !looksLikeEmail(entry)) return { path, message: "Each entry is a member's e-mail" };
    emails.push(entry.trim().toLowerCase());
  }
  return [...new Set(emails)];
}

/** Shape only: whether it names a member is the member lookup's to say (refuseNonMembers). */
export const looksLikeEmail = (value: string): boolean => value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value.trim());

/**
 * Refuses e-mails that are not the org's members, naming each (`found`: the members' e-mails the lookup returned);
 * nothing is stored then. The same words for a review's assignee and for the approver group.
 */
export function refuseNonMembers(emails: readonly string[], found: readonly string[], path: string): void {
  const members = new Set(found.map((email) => email.toLowerCase()));
  const outside = emails.filter((email) => !members.has(email.trim().toLowerCase()));
  if (outside.length === 0) return;
  const named = outside.slice(0, 5).map((email) => email.slice(0, 254));
  throw validationError(`Not a member of the organization: ${named.join(", ")}${outside.length > 5 ? ", …" : ""}. Name members only; nothing was changed.`, [
    { path, message: `Not a member: ${named.join(", ")}` },
  ]);
}

/** A locale as sent (a BCP 47 tag, or null to unset), canonical ("en-us" → "en-US"), or the issue naming what is wrong. */
function localeOf(value: unknown, path: string): { locale: string | undefined } | ValidationIssue {
  if (value === null) return { locale: undefined };
  const canonical = typeof value === "string" ? canonicalLocaleTag(value) : null;
  return canonical ? { locale: canonical } : { path, message: "A BCP 47 language tag such as en-US or ja-JP, or null" };
}

function sharingOf(value: unknown, path: string): SharingMode | ValidationIssue {
  return isSharingMode(value) ? value : { path, message: `One of ${SHARING_MODES.join(", ")}` };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const unknownFields = (value: Record<string, unknown>, known: readonly string[], at: string): ValidationIssue[] =>
  Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({ path: `${at}${key.slice(0, 40)}`, message: "Not a field" }));

function approvalOf(value: unknown, path: string): ApprovalMode | ValidationIssue {
  return typeof value === "string" && (APPROVAL_MODES as readonly string[]).includes(value)
    ? (value as ApprovalMode)
    : { path, message: `One of ${APPROVAL_MODES.join(", ")}` };
}

const refuse = (issues: ValidationIssue[]): never => {
  throw validationError(`The settings were not changed: ${issues.map((i) => `${i.path}: ${i.message}`).slice(0, 3).join("; ")}${issues.length > 3 ? "; …" : ""}.`, issues);
};

/**
 * The settings after a change an admin sent: `planApproval`, `sharing`, and `sourcePolicy` with either list or both (a list
 * given replaces the stored one whole). Unknown fields, a change of nothing, and any bad domain are refused, naming
 * each; nothing is changed then.
 */
export function applySettingsChange(body: unknown, current: OrgSettingsValues): OrgSettingsValues {
  if (!isObject(body)) throw validationError("The body must be a JSON object.");
  const issues = unknownFields(body, FIELDS, "");
  if (body.planApproval === undefined && body.sourcePolicy === undefined && body.sharing === undefined && body.approvers === undefined && body.locale === undefined) {
    issues.push({ path: "planApproval", message: "Give planApproval, sourcePolicy, sharing, approvers, locale or several" });
  }
  let approvers = current.approvers;
  if (body.approvers !== undefined) {
    const list = emailListOf(body.approvers, "approvers");
    if (Array.isArray(list)) approvers = list;
    else issues.push(list);
  }
  let locale = current.locale;
  if (body.locale !== undefined) {
    const given = localeOf(body.locale, "locale");
    if ("locale" in given) locale = given.locale;
    else issues.push(given);
  }
  let sharing = current.sharing;
  if (body.sharing !== undefined) {
    const mode = sharingOf(body.sharing, "sharing");
    if (typeof mode === "string") sharing = mode;
    else issues.push(mode);
  }
  let planApproval = current.planApproval;
  if (body.planApproval !== undefined) {
    const mode = approvalOf(body.planApproval, "planApproval");
    if (typeof mode === "string") planApproval = mode;
    else issues.push(mode);
  }
  let sourcePolicy = current.sourcePolicy;
  if (body.sourcePolicy !== undefined) {
    const given = body.sourcePolicy;
    if (!isObject(given)) issues.push({ path: "sourcePolicy", message: "An object with blockedDomains, preferredDomains or both" });
    else {
      issues.push(...unknownFields(given, SOURCE_POLICY_LISTS, "sourcePolicy."));
      const checked = checkSourcePolicy({
        blockedDomains: given.blockedDomains ?? current.sourcePolicy.blockedDomains,
        preferredDomains: given.preferredDomains ?? current.sourcePolicy.preferredDomains,
      });
      if (checked.ok) sourcePolicy = checked.policy;
      else issues.push(...checked.issues);
    }
  }
  if (issues.length) refuse(issues);
  return { planApproval, sourcePolicy, sharing, approvers, ...(locale ? { locale } : {}) };
}

/**
 * The settings an org export's header carries, checked like an admin's change (an import file is caller input). An
 * export made before sharing was a setting has none: the default, members.
 */
export function parseExportedSettings(value: unknown, where: string): OrgSettingsValues {
  const fail = (issues: ValidationIssue[]): never => {
    throw validationError(`${where}: the org settings are not valid (${issues.map((i) => `${i.path}: ${i.message}`).slice(0, 3).join("; ")}).`, issues);
  };
  if (!isObject(value) || !isObject(value.sourcePolicy)) return fail([{ path: "settings", message: "An object with planApproval and sourcePolicy" }]);
  const issues = [...unknownFields(value, FIELDS, "settings."), ...unknownFields(value.sourcePolicy, SOURCE_POLICY_LISTS, "settings.sourcePolicy.")];
  const mode = approvalOf(value.planApproval, "settings.planApproval");
  if (typeof mode !== "string") issues.push(mode);
  const sharing = value.sharing === undefined ? "members" : sharingOf(value.sharing, "settings.sharing");
  if (typeof sharing !== "string") issues.push(sharing);
  const checked = checkSourcePolicy({ blockedDomains: value.sourcePolicy.blockedDomains, preferredDomains: value.sourcePolicy.preferredDomains }, "settings.sourcePolicy");
  if (!checked.ok) issues.push(...checked.issues);
  // An export made before approver groups has none.
  const approvers = value.approvers === undefined ? [] : emailListOf(value.approvers, "settings.approvers");
  if (!Array.isArray(approvers)) issues.push(approvers);
  // An export made before the locale was a setting, or of an org that set none, has none.
  const locale = value.locale === undefined ? { locale: undefined } : localeOf(value.locale, "settings.locale");
  if (!("locale" in locale)) issues.push(locale);
  if (issues.length || typeof mode !== "string" || typeof sharing !== "string" || !checked.ok || !Array.isArray(approvers) || !("locale" in locale)) return fail(issues);
  return { planApproval: mode, sourcePolicy: checked.policy, sharing, approvers, ...(locale.locale ? { locale: locale.locale } : {}) };
}

/** Refuses an approver group naming anyone who is not a member of the org, naming them (REST and the dashboard ask this). */
export async function assertApproversAreMembers(members: OrgMembers, orgId: string, approvers: readonly string[]): Promise<void> {
  if (approvers.length === 0) return;
  const found = await members.byEmails(orgId, approvers);
  refuseNonMembers(approvers, found.map((person) => person.email), "approvers");
}

/** What changed, for the audit log: the approval's from/to, and each list's added and removed domains (at most 20 named each). */
export function settingsChangeDetail(before: OrgSettingsValues, after: OrgSettingsValues): Record<string, unknown> {
  const detail: Record<string, unknown> = {};
  if (before.planApproval !== after.planApproval) detail.planApproval = { from: before.planApproval, to: after.planApproval };
  if (before.sharing !== after.sharing) detail.sharing = { from: before.sharing, to: after.sharing };
  if (before.approvers.join(",") !== after.approvers.join(",")) detail.approvers = { from: before.approvers, to: after.approvers };
  if (before.locale !== after.locale) detail.locale = { from: before.locale ?? null, to: after.locale ?? null };
  for (const list of SOURCE_POLICY_LISTS) {
    const was = new Set(before.sourcePolicy[list]);
    const now = new Set(after.sourcePolicy[list]);
    const added = after.sourcePolicy[list].filter((d) => !was.has(d));
    const removed = before.sourcePolicy[list].filter((d) => !now.has(d));
    if (added.length + removed.length > 0) {
      detail[list] = { added: added.slice(0, 20), removed: removed.slice(0, 20), ...(added.length + removed.length > 40 ? { more: true } : {}), total: now.size };
    }
  }
  return detail;
}

/** The org's settings, all read at once. */
export async function readSettings(port: OrgSettings, orgId: string): Promise<OrgSettingsValues> {
  const [planApproval, sourcePolicy, sharing, approvers, locale] = await Promise.all([
    port.planApproval(orgId),
    port.sourcePolicy(orgId),
    port.sharing(orgId),
    port.approvers(orgId),
    port.locale(orgId),
  ]);
  return { planApproval, sourcePolicy, sharing, approvers: approvers.map((person) => person.email), ...(locale ? { locale } : {}) };
}

/** Stores what differs between `before` and `after`. */
export async function writeSettings(port: OrgSettings, orgId: string, before: OrgSettingsValues, after: OrgSettingsValues): Promise<void> {
  if (before.planApproval !== after.planApproval) await port.setPlanApproval(orgId, after.planApproval);
  if (before.sharing !== after.sharing) await port.setSharing(orgId, after.sharing);
  if (before.locale !== after.locale) await port.setLocale(orgId, after.locale ?? null);
  if (JSON.stringify(before.sourcePolicy) !== JSON.stringify(after.sourcePolicy)) await port.setSourcePolicy(orgId, after.sourcePolicy);
  if (before.approvers.join(",") !== after.approvers.join(",")) await port.setApprovers(orgId, after.approvers);
}
