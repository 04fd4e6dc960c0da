import { CairnError } from "../../domain/errors";
import type { SourceCheckMessage } from "../../domain/ports";
import { CHECK_FAILURE_REASONS } from "../../domain/sources/check-scheduling";
import { unchecked } from "../../domain/sources/verification";
import type { Env } from "../../env";
import { recordVerdictIfPending } from "../../storage/source-check-runs";
import { homeDatabase } from "../org-homes";
import { log } from "../log";

/**
 * How a source check that fails still ends in a verdict. A check that fails is retried by the org's checker; on its
 * last attempt (durable-objects/source-checker-object.ts), or when the queue gives a hand-off up (to the dead-letter
 * queue), the source, still pending, is marked unchecked with why. A re-check that fails leaves the source its
 * previous verdict (it never was pending).
 */

/** The source-check queue's dead-letter queue (wrangler.toml; a deployment names it "<worker>-source-checks-dlq"). */
export const SOURCE_CHECK_DLQ_NAME = "cairn-source-checks-dlq";
export const isSourceCheckDeadLetterQueue = (name: string) => name === SOURCE_CHECK_DLQ_NAME || name.endsWith("-source-checks-dlq");

/** Marks the message's source unchecked (`reason`) if it is still pending; throws when that write fails. */
export async function giveUp(env: Env, body: SourceCheckMessage, reason: string): Promise<void> {
  if (body.recheck) return;
  const home = await homeDatabase(env, body.orgId);
  await recordVerdictIfPending(home, body.orgId, body.planId, body.n, unchecked(reason, Date.now()));
}

/** The consumer of the source-check dead-letter queue: each source given up by the queue is marked unchecked. */
export async function handleDeadSourceChecks(batch: MessageBatch<SourceCheckMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const { orgId, planId, n } = message.body;
    try {
      await giveUp(env, message.body, CHECK_FAILURE_REASONS.deadLettered);
      message.ack();
    } catch (error) {
      if (error instanceof CairnError && error.code === "not_found") {
        message.ack();
        continue;
      }
      // Retried by this queue; past its retries the pending sweep still ends the source unchecked.
      log("error", "a dead-lettered source check was not recorded; retried", { orgId, planId, n, error: String(error) });
      message.retry();
    }
  }
}
