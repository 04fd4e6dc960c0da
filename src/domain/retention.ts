/**
 * How long Cairn keeps records that grow with use rather than with research: the
 * tool-call log (one row per call, ≈ 0.4 KB) and webhook deliveries that have
 * ended. Plans, artifacts, deliverables, the ledger and the audit trail are kept
 * until someone deletes them. The default keeps the longest analytics window.
 */
export const RETENTION_DEFAULT_DAYS = { toolCalls: 90, webhookDeliveries: 30 } as const;
const DAY_MS = 86_400_000;

/** The configured number of days, or the default when unset or not a whole number of at least 1. */
export function retentionDays(configured: string | undefined, fallback: number): number {
  const days = Number(configured);
  return Number.isInteger(days) && days >= 1 ? days : fallback;
}

/** Records created before this moment are removed. */
export const retentionCutoff = (now: number, days: number): number => now - days * DAY_MS;
