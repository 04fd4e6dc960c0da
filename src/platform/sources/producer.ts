import type { SourceCheckMessage, SourceCheckQueue } from "../../domain/ports";
import { SOURCE_CHECK_LIMITS } from "../../domain/sources/verification";
import type { Env } from "../../env";

const positive = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
};

/** Recorded sources to the source-check queue, 100 messages a send (the queue's batch limit). */
export function sourceCheckQueue(env: Env): SourceCheckQueue {
  return {
    limits: {
      perMinute: positive(env.SOURCE_CHECKS_PER_MINUTE, SOURCE_CHECK_LIMITS.perMinute),
      perDay: positive(env.SOURCE_CHECKS_PER_DAY, SOURCE_CHECK_LIMITS.perDay),
    },
    async enqueue(messages: SourceCheckMessage[]) {
      for (let i = 0; i < messages.length; i += 100) await env.SOURCE_CHECK_QUEUE.sendBatch(messages.slice(i, i + 100).map((body) => ({ body })));
    },
  };
}
