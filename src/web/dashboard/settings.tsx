import type { ValidationIssue } from "../../domain/errors";
import { APPROVAL_MODES, type ApprovalMode } from "../../domain/plans/approval";
import { type PaperSize, paperSizeFor } from "../../domain/research/paper-size";
import { SHARE_LIMITS, SHARING_MODES, type SharingMode } from "../../domain/shares";
import { SOURCE_POLICY_LIMITS } from "../../domain/sources/source-policy";
import { Flash, IssueList } from "./layout";

// ---------------------------------------------------------------------------
// Org admin → Settings: new plans' approval and who approves, who may share deliverables by link, the source policy (blocked and preferred
// domains), and the locale (the paper of PDF downloads).

/** What the form shows: the stored settings, or after a refusal what the admin typed (so nothing typed is lost). */
export interface SettingsFormValues {
  planApproval: ApprovalMode;
  blockedDomains: string;
  preferredDomains: string;
  sharing: SharingMode;
  /** The approver group, one e-mail a line. */
  approvers: string;
  /** The org's locale, a language tag ("en-US"); empty for none. */
  locale: string;
}

const PAPER_NAMES: Record<PaperSize, string> = { A4: "A4", Letter: "US Letter" };

const SHARING_LABELS: Record<SharingMode, string> = {
  members: "Members: any member may share a deliverable by link",
  admins: "Admins: only admins may share",
  off: "Off: no one may share, and existing links stop answering",
};

const APPROVAL_LABELS: Record<ApprovalMode, string> = {
  optional: "Optional: plans start at once unless the assistant asks for approval",
  required: "Required: every new plan waits for a person's approval before its first step",
};

/**
 * `savedLocale`: the locale stored now (the form may show what was typed instead, after a refusal), whose paper the
 * page names.
 */
export function SettingsPage(props: {
  values: SettingsFormValues;
  savedLocale: string | null;
  csrf: string;
  flash?: string | null;
  error?: string | null;
  issues?: ValidationIssue[];
}) {
  const { values, savedLocale } = props;
  return (
    <>
      <p class="muted">
        <a href="/dashboard/admin">← Org admin</a>
      </p>
      <h1>Settings</h1>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      <IssueList id="settings-issues" issues={props.issues} />
      <form class="card" method="post" action="/dashboard/admin/settings" id="org-settings">
        <input type="hidden" name="csrf" value={props.csrf} />
        <h2>Plan approval</h2>
        <label for="s-approval">New plans</label>
        <br />
        <select id="s-approval" name="planApproval">
          {APPROVAL_MODES.map((mode) => (
            <option value={mode} selected={mode === values.planApproval}>
              {APPROVAL_LABELS[mode]}
            </option>
          ))}
        </select>
        <br />
        <label for="s-approvers">Approvers: only these members approve plans, and a waiting approval is sent to them (one e-mail a line; empty: any person)</label>
        <br />
        <textarea id="s-approvers" name="approvers" rows={3} spellcheck={false} autocomplete="off">
          {values.approvers}
        </textarea>
        <h2>Share links</h2>
        <p class="muted">
          A share link lets anyone who has it read one deliverable with its sources, without signing in, for {SHARE_LIMITS.defaultDays} days unless its maker
          chose another span (at most {SHARE_LIMITS.maxDays}). Any member may revoke a link.
        </p>
        <label for="s-sharing">Who may share</label>
        <br />
        <select id="s-sharing" name="sharing">
          {SHARING_MODES.map((mode) => (
            <option value={mode} selected={mode === values.sharing}>
              {SHARING_LABELS[mode]}
            </option>
          ))}
        </select>
        <h2>Source policy</h2>
        <p class="muted">
          One domain a line. A domain covers its subdomains: example.com also covers www.example.com, never badexample.com. Addresses and URLs are reduced to
          their domain; IP addresses are refused. At most {SOURCE_POLICY_LIMITS.domainsPerList} in each list, and a domain is never both blocked and preferred.
          Sources recorded before a domain is blocked stay in their ledgers.
        </p>
        <label for="s-blocked">Blocked domains: the assistant cannot record evidence from them</label>
        <br />
        <textarea id="s-blocked" name="blockedDomains" rows={6} spellcheck={false} autocomplete="off">
          {values.blockedDomains}
        </textarea>
        <br />
        <label for="s-preferred">Preferred domains: each plan's evidence ledger counts the sources from them</label>
        <br />
        <textarea id="s-preferred" name="preferredDomains" rows={6} spellcheck={false} autocomplete="off">
          {values.preferredDomains}
        </textarea>
        <h2>Paper for PDF downloads</h2>
        <p class="muted">
          The organization's locale sets the paper PDF downloads of deliverables are printed on: US Letter for a locale of a Letter country (the United States,
          Canada, Mexico and others), A4 for any other locale and when none is set.
        </p>
        <p id="s-paper">
          Paper for PDF downloads: <strong>{PAPER_NAMES[paperSizeFor(savedLocale)]}</strong>{" "}
          {savedLocale ? (
            <>
              (locale <code>{savedLocale}</code>)
            </>
          ) : (
            "(no locale set)"
          )}
        </p>
        <label for="s-locale">Locale: a language tag such as en-US, en-GB, fr-CA or ja-JP (empty: none)</label>
        <br />
        <input id="s-locale" type="text" name="locale" value={values.locale} maxlength={35} spellcheck={false} autocomplete="off" />
        <p>
          <button class="primary" type="submit">
            Save settings
          </button>
        </p>
      </form>
    </>
  );
}
