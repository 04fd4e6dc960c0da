/**
 * The org's source policy: domains its admins block (evidence from them is refused) and domains they prefer
 * (the ledger counts the sources that come from them). A rule names a domain and covers its subdomains:
 * `example.com` matches `example.com` and `www.example.com`, never `badexample.com`.
 *
 * Rules are domain names only. An IP address is refused as a rule: a source policy speaks of publishers, and an
 * address rule would be easy to step around (the same host has other addresses and names). Input is forgiving
 * about spelling (`https://Example.COM:443/path`, `*.example.com`, `example.com.`, `bücher.de`) and strict about
 * what it ends up naming: a hostname of letters, digits and hyphens, IDN in its punycode form, as the URL parser
 * writes it.
 *
 * Imports nothing: the operator CLI loads this file directly.
 */

export const SOURCE_POLICY_LIMITS = {
  /** Rules in each list. */
  domainsPerList: 500,
  /** A domain name's length (DNS's own limit). */
  domainChars: 253,
  /** What is read of one input before it is normalized (a pasted URL may carry a path). */
  inputChars: 2_000,
} as const;

export interface SourcePolicy {
  blockedDomains: string[];
  preferredDomains: string[];
}

export const emptySourcePolicy = (): SourcePolicy => ({ blockedDomains: [], preferredDomains: [] });

export type SourcePolicyList = keyof SourcePolicy;
export const SOURCE_POLICY_LISTS: readonly SourcePolicyList[] = ["blockedDomains", "preferredDomains"];

/** One problem with the input, at a dotted path the caller can point at (`sourcePolicy.blockedDomains.3`). */
export interface PolicyIssue {
  path: string;
  message: string;
}

export type PolicyCheck = { ok: true; policy: SourcePolicy } | { ok: false; issues: PolicyIssue[] };

export type NormalizedDomain = { ok: true; domain: string } | { ok: false; reason: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4_LIKE = /^[0-9.]+$/;

/** A rule as stored: lower case, punycode, no scheme, path, port, `*.` or trailing dot; or why the input names no domain. */
export function normalizeDomain(input: string): NormalizedDomain {
  const text = input.trim();
  if (text === "") return { ok: false, reason: "is empty" };
  if (text.length > SOURCE_POLICY_LIMITS.inputChars) return { ok: false, reason: `is longer than ${SOURCE_POLICY_LIMITS.inputChars} characters` };
  const withoutWildcard = text.replace(/^\*\./, "").replace(/^\./, "");
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(withoutWildcard);
  let url: URL;
  try {
    url = new URL(hasScheme ? withoutWildcard : `http://${withoutWildcard}`);
  } catch {
    return { ok: false, reason: "is not a domain name" };
  }
  if (url.username || url.password) return { ok: false, reason: "is not a domain name (it carries a user name)" };
  const host = url.hostname.replace(/\.+$/, "");
  if (host === "") return { ok: false, reason: "names no domain" };
  if (host.startsWith("[") || IPV4_LIKE.test(host)) return { ok: false, reason: "is an IP address: a rule names a domain (and covers its subdomains)" };
  if (host.length > SOURCE_POLICY_LIMITS.domainChars) return { ok: false, reason: `is longer than ${SOURCE_POLICY_LIMITS.domainChars} characters, the longest a domain name can be` };
  if (!host.split(".").every((label) => LABEL.test(label))) {
    return { ok: false, reason: "is not a domain name (labels of letters, digits and inner hyphens, up to 63 characters each)" };
  }
  return { ok: true, domain: host };
}

/** The host of a source URL as rules see it, or null when it has none a rule could name (an IP address, not a URL). */
export function hostOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  // Every trailing dot goes: `example.com..` must not slip past a rule for example.com.
  const host = parsed.hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "" || host.startsWith("[") || IPV4_LIKE.test(host)) return null;
  return host;
}

/** Whether `rule` covers `host`: the domain itself or any subdomain of it. */
export function domainCovers(rule: string, host: string): boolean {
  return host === rule || host.endsWith(`.${rule}`);
}

/** The most specific rule of `rules` that covers `host`, if any. */
function coveringRule(rules: readonly string[], host: string): string | null {
  let best: string | null = null;
  for (const rule of rules) {
    if (domainCovers(rule, host) && (best === null || rule.length > best.length)) best = rule;
  }
  return best;
}

export type SourceDecision = { kind: "blocked"; rule: string } | { kind: "preferred"; rule: string } | { kind: "neither" };

/**
 * What the policy says of a source URL. Blocking wins: a host covered by a blocked rule is blocked even where a
 * broader preferred rule covers it too (`blocked: www.example.com` inside `preferred: example.com`). The rule named
 * is the most specific one that matched.
 */
export function decideSource(policy: SourcePolicy, url: string): SourceDecision {
  const host = hostOf(url);
  if (host === null) return { kind: "neither" };
  const blocked = coveringRule(policy.blockedDomains, host);
  if (blocked !== null) return { kind: "blocked", rule: blocked };
  const preferred = coveringRule(policy.preferredDomains, host);
  return preferred !== null ? { kind: "preferred", rule: preferred } : { kind: "neither" };
}

/** The words every face uses to refuse a blocked source. */
export function blockedSourceMessage(rule: string): string {
  return `blocked by your organization's source policy: ${rule}`;
}

/** How many of these source URLs come from a preferred domain (blocked ones, should any be stored, never count). */
export function countPreferred(policy: SourcePolicy, urls: Iterable<string>): number {
  if (policy.preferredDomains.length === 0) return 0;
  let count = 0;
  for (const url of urls) if (decideSource(policy, url).kind === "preferred") count++;
  return count;
}

/**
 * Checks and normalizes a whole policy (each list given as caller input): every entry a domain, within the bounds,
 * duplicates merged, and no preferred domain that a blocked rule covers (it would be both). `at` prefixes each
 * issue's path.
 */
export function checkSourcePolicy(input: { blockedDomains: unknown; preferredDomains: unknown }, at = "sourcePolicy"): PolicyCheck {
  const issues: PolicyIssue[] = [];
  const lists: SourcePolicy = { blockedDomains: [], preferredDomains: [] };
  for (const name of SOURCE_POLICY_LISTS) {
    const value = input[name];
    const path = `${at}.${name}`;
    if (!Array.isArray(value)) {
      issues.push({ path, message: "A list of domain names" });
      continue;
    }
    if (value.length > SOURCE_POLICY_LIMITS.domainsPerList) {
      issues.push({ path, message: `At most ${SOURCE_POLICY_LIMITS.domainsPerList} domains (${value.length} given)` });
      continue;
    }
    const seen = new Set<string>();
    value.forEach((entry: unknown, i) => {
      if (typeof entry !== "string") {
        issues.push({ path: `${path}.${i}`, message: "A domain name, as text" });
        return;
      }
      const normalized = normalizeDomain(entry);
      if (!normalized.ok) {
        issues.push({ path: `${path}.${i}`, message: `"${entry.trim().slice(0, 80)}" ${normalized.reason}` });
        return;
      }
      if (!seen.has(normalized.domain)) {
        seen.add(normalized.domain);
        lists[name].push(normalized.domain);
      }
    });
  }
  lists.preferredDomains.forEach((domain, i) => {
    const blocking = coveringRule(lists.blockedDomains, domain);
    if (blocking !== null) {
      const why = blocking === domain ? `${domain} is both blocked and preferred` : `${domain} is preferred, but the blocked rule ${blocking} covers it`;
      issues.push({ path: `${at}.preferredDomains.${i}`, message: `${why}: a domain is one or the other` });
    }
  });
  return issues.length ? { ok: false, issues } : { ok: true, policy: lists };
}

/** A change to the lists one domain at a time (the CLI's flags): each entry as the admin typed it. */
export interface SourcePolicyEdit {
  block?: readonly string[];
  unblock?: readonly string[];
  prefer?: readonly string[];
  unprefer?: readonly string[];
}

/**
 * The policy after an edit: removals first, then additions (so a domain can move from one list to the other in
 * one edit), then the whole checked. Removing a domain the list does not hold is an error, so a mistyped domain
 * does not pass for done.
 */
export function editSourcePolicy(current: SourcePolicy, edit: SourcePolicyEdit): PolicyCheck {
  const issues: PolicyIssue[] = [];
  const next: SourcePolicy = { blockedDomains: [...current.blockedDomains], preferredDomains: [...current.preferredDomains] };
  const removals: [keyof SourcePolicyEdit, SourcePolicyList][] = [
    ["unblock", "blockedDomains"],
    ["unprefer", "preferredDomains"],
  ];
  for (const [flag, list] of removals) {
    for (const entry of edit[flag] ?? []) {
      const normalized = normalizeDomain(entry);
      if (!normalized.ok) {
        issues.push({ path: flag, message: `"${entry.trim().slice(0, 80)}" ${normalized.reason}` });
        continue;
      }
      const at = next[list].indexOf(normalized.domain);
      if (at < 0) issues.push({ path: flag, message: `${normalized.domain} is not in the ${list === "blockedDomains" ? "blocked" : "preferred"} domains` });
      else next[list].splice(at, 1);
    }
  }
  next.blockedDomains.push(...(edit.block ?? []));
  next.preferredDomains.push(...(edit.prefer ?? []));
  if (issues.length) return { ok: false, issues };
  return checkSourcePolicy(next, "sourcePolicy");
}
