import type { SourceVerification } from "../../domain/sources/verification";
import type { Env } from "../../env";
import { recordRecheckVerdict, settleDeliveryVerdicts } from "../../storage/delivered-sources";
import type { d1EvidenceLedger } from "../../storage/ledger-repository";
import { outboxPublisher } from "../webhooks/producer";

/**
 * Where a source check's verdict goes, once the check has it (platform/sources/check-source.ts).
 *
 * A first check: onto the evidence row; a deliverable stored while the source was still pending takes it as
 * its verdict at delivery. A re-check of a source a stored deliverable cites (`recheck` on the message): onto
 * the evidence row with the previous snapshot kept and the changed/gone mark, and each deliverable citing it
 * announces a change once (`research_output.sources_changed`), through the outbox, in the same batch.
 */
export async function recordVerdict(
  env: Env,
  home: D1Database,
  ledger: ReturnType<typeof d1EvidenceLedger>,
  message: { orgId: string; planId: string; n: number; recheck?: true },
  verdict: SourceVerification,
): Promise<void> {
  const { orgId, planId, n } = message;
  if (message.recheck) {
    const events = await recordRecheckVerdict(home, orgId, planId, n, verdict, Date.now());
    // Sent at once; what the queue refuses stays in the outbox for the sweeper.
    await outboxPublisher(env.WEBHOOK_QUEUE, home).publish(events);
    return;
  }
  await ledger.recordVerification(orgId, planId, n, verdict);
  await settleDeliveryVerdicts(home, orgId, planId, n, verdict);
}
