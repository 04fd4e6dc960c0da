/**
 * The one gate for every request Cairn sends to an address someone else chose: source checks, search providers,
 * webhooks, Slack-compatible notification channels, client metadata documents and an org's single sign-on provider. It decides, from the deployment's CAIRN_ENV, which outbound-address policy
 * applies; the guard (outbound-address.ts) then judges each URL by it.
 *
 * It fails closed: loopback (local fixtures, a local SearXNG or webhook receiver) is allowed only when CAIRN_ENV is
 * exactly "development". Anything else (production, unset, misspelled, another case, "dev", "staging") is treated as
 * a deployment on the Internet, where loopback would reach the Worker's own host.
 */
import { isDevelopment } from "./deployment-mode";
import type { OutboundPolicy } from "./outbound-address";

/** Who sends the request. Client metadata documents must be reachable from the Internet to mean anything: never loopback. */
export type OutboundUse = "source_check" | "search_provider" | "webhook" | "notification" | "client_metadata" | "sso_provider";

export function outboundPolicyFor(cairnEnv: string | undefined, use: OutboundUse): OutboundPolicy {
  return { allowLoopback: isDevelopment(cairnEnv) && use !== "client_metadata" };
}
