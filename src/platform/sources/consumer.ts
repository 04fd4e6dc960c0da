import type { SourceCheckMessage } from "../../domain/ports";
import { groupBy } from "../../domain/sources/check-scheduling";
import type { Env } from "../../env";
import { log } from "../log";

/** The source-check queue as wrangler.toml names it (a deployment names it after its Worker: "<worker>-source-checks"). */
export const SOURCE_CHECK_QUEUE_NAME = "cairn-source-checks";
export const isSourceCheckQueue = (name: string) => name === SOURCE_CHECK_QUEUE_NAME || name.endsWith("-source-checks");

/** An org's checker: one Durable Object per org, named by the org's id. */
export const sourceCheckerOf = (env: Env, orgId: string) => env.SOURCE_CHECKER.get(env.SOURCE_CHECKER.idFromName(orgId));

/**
 * The consumer of the source-check queue: it checks nothing itself. Each org's messages of the batch are handed to
 * that org's checker (durable-objects/source-checker-object.ts), which stores them and runs the checks, so a batch
 * never waits on a page and one org's slow pages delay only that org's checks. A hand-off that fails is retried by
 * the queue; past its attempts the message goes to the dead-letter queue, whose consumer marks the source unchecked.
 */
export async function handleSourceChecks(batch: MessageBatch<SourceCheckMessage>, env: Env): Promise<void> {
  const byOrg = groupBy(batch.messages, (message) => message.body.orgId);
  await Promise.all(
    byOrg.map(async (messages) => {
      const orgId = messages[0]?.body.orgId ?? "";
      try {
        await sourceCheckerOf(env, orgId).accept(messages.map((message) => message.body));
        for (const message of messages) message.ack();
      } catch (error) {
        log("error", "source checks not handed to the org's checker; retried", { orgId, count: messages.length, error: String(error) });
        for (const message of messages) message.retry();
      }
    }),
  );
}
