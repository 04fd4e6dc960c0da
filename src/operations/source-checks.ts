import { rateLimited } from "../domain/errors";
import { checkBudget } from "../domain/sources/verification";
import type { OperationContext } from "./operation";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Refuses (rate_limited, with Retry-After) when `count` more source checks would pass the org's limits. */
export async function admitSourceChecks(ctx: OperationContext, count: number): Promise<void> {
  const now = ctx.now();
  const used = await ctx.services.ledger.sourceCheckRequests(ctx.principal.orgId, { minute: now - MINUTE_MS, day: now - DAY_MS });
  const refusal = checkBudget(used, count, ctx.services.sourceChecks.limits);
  if (refusal) throw rateLimited(refusal.message, refusal.retryAfterSeconds);
}

/**
 * Hands the sources just recorded (not those already in the ledger) to the source-check queue. A send that
 * fails leaves them pending; a deliverable that needs one sends it again (source-integrity in store_research_output).
 */
export async function requestSourceChecks(ctx: OperationContext, planId: string, recorded: { ref: string; duplicate: boolean }[]): Promise<void> {
  const numbers = [...new Set(recorded.filter((r) => !r.duplicate).map((r) => Number(r.ref.slice(1))))];
  await sendChecks(ctx, planId, numbers);
}

export async function sendChecks(ctx: OperationContext, planId: string, numbers: number[]): Promise<void> {
  if (numbers.length === 0) return;
  try {
    await ctx.services.sourceChecks.enqueue(numbers.map((n) => ({ orgId: ctx.principal.orgId, planId, n })));
  } catch (error) {
    console.log(JSON.stringify({ level: "warn", message: "source checks not queued; they stay pending", planId, error: String(error) }));
  }
}
