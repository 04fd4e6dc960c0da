import { type ValidationIssue, validationError } from "../domain/errors";
import { blockedSourceMessage, decideSource } from "../domain/sources/source-policy";
import type { OperationContext } from "./operation";

/** A source about to enter a ledger, and where the caller gave it (`evidence.2.url`). */
export interface IncomingSource {
  path: string;
  url: string;
}

/**
 * Refuses the whole call when any incoming source comes from a domain the org blocks: each blocked source is named
 * by its path with the rule that matched, and nothing of the call is recorded. Sources already in a ledger stay
 * as they are when a domain is blocked later (nothing stored is lost); only new ones are refused.
 */
export async function refuseBlockedSources(ctx: OperationContext, sources: readonly IncomingSource[]): Promise<void> {
  if (sources.length === 0) return;
  const policy = await ctx.services.orgSettings.sourcePolicy(ctx.principal.orgId);
  if (policy.blockedDomains.length === 0) return;
  const issues: ValidationIssue[] = [];
  const rules = new Set<string>();
  for (const source of sources) {
    const decision = decideSource(policy, source.url);
    if (decision.kind !== "blocked") continue;
    rules.add(decision.rule);
    issues.push({ path: source.path, message: blockedSourceMessage(decision.rule) });
  }
  if (issues.length === 0) return;
  const what = issues.length === 1 ? "A source is" : `${issues.length} sources are`;
  // Said so the assistant knows what to do next: the refusal is the org's decision, not an error to retry.
  throw validationError(`${what} ${blockedSourceMessage([...rules].join(", "))}. Nothing was recorded: leave them out (find the facts elsewhere) and send the call again.`, issues);
}
