/**
 * Where a source check may fetch, hop by hop: the cited URL and every redirect it leads to pass the same three rules,
 * so a redirect cannot carry a check where the first address could not go. Pure: the fetcher asks before each request.
 */
import { checkOutboundUrl, type OutboundPolicy } from "../outbound-address";
import { blockedSourceMessage, decideSource } from "./source-policy";

export interface SourceFetchRules {
  /** The outbound-address guard's policy (outboundPolicyFor the deployment). */
  outbound: OutboundPolicy;
  /** SOURCE_CHECK_HOSTS: the only hosts this deployment fetches from; null for any public host. */
  allowedHosts: ReadonlySet<string> | null;
  /** The org's blocked domains (its source policy): no hop may reach one, so nothing of theirs is read or kept. */
  blockedDomains: readonly string[];
}

export type HopVerdict = { allowed: true; url: URL } | { allowed: false; reason: string };

/**
 * Whether hop `hop` of a fetch (0: the cited URL; then each redirect) may go to `target`. A refusal is an unreachable
 * reason with the `refused` code, naming the rule that refused it.
 */
export function checkFetchHop(target: string, hop: number, rules: SourceFetchRules): HopVerdict {
  const which = hop === 0 ? "the address" : "a redirect";
  const refused = (why: string): HopVerdict => ({ allowed: false, reason: `refused: ${which} was refused (${why})` });
  const verdict = checkOutboundUrl(target, rules.outbound);
  if (!verdict.allowed) return refused(verdict.reason);
  const decision = decideSource({ blockedDomains: [...rules.blockedDomains], preferredDomains: [] }, verdict.url.href);
  if (decision.kind === "blocked") return refused(blockedSourceMessage(decision.rule));
  if (rules.allowedHosts && !rules.allowedHosts.has(verdict.url.hostname.toLowerCase().replace(/\.+$/, ""))) {
    return refused("this deployment fetches only from the hosts SOURCE_CHECK_HOSTS lists");
  }
  return verdict;
}

/**
 * Whether a page kept from an earlier fetch (the snapshot reuse window) may answer a check under today's rules: the
 * cited address and the one the text was read from each pass them, so a domain blocked since, or a host the deployment
 * no longer fetches from, sends the check to read again (where the rule then refuses it, naming itself). The hops
 * between are not kept: a page reached through a redirect is reused only while the org blocks nothing; a kept page
 * whose final address is unknown (kept before it was recorded) is read again.
 */
export function mayReuseKeptPage(kept: { url: string; finalUrl: string | null }, rules: SourceFetchRules): boolean {
  if (kept.finalUrl === null) return false;
  if (kept.finalUrl !== kept.url && rules.blockedDomains.length > 0) return false;
  return checkFetchHop(kept.url, 0, rules).allowed && checkFetchHop(kept.finalUrl, 1, rules).allowed;
}
