import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PENDING_SWEEP, SOURCE_CHECK_CONCURRENCY } from "../../src/domain/sources/check-scheduling";

/** wrangler.toml's source-check queues agree with what the consumer counts on (src/domain/sources/check-scheduling.ts). */
const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const consumerOf = (queue: string) => {
  // Each consumer's own lines: from its header to the next table or comment.
  const block = toml
    .split("[[queues.consumers]]")
    .map((part) => part.split(/\n[[#]/)[0] ?? "")
    .find((part) => part.includes(`\nqueue = "${queue}"\n`));
  if (!block) throw new Error(`no consumer of ${queue}`);
  return block;
};
const setting = (block: string, name: string) => Number(new RegExp(`^${name} = (\\d+)$`, "m").exec(block)?.[1]);

describe("the source-check queue's configuration", () => {
  it("gives a hand-off to an org's checker the attempts a check has there", () => {
    const main = consumerOf("cairn-source-checks");
    expect(setting(main, "max_retries") + 1).toBe(SOURCE_CHECK_CONCURRENCY.maxAttempts);
  });

  it("binds each org's checker (a SQLite Durable Object class of its own) and the dead-letter queue it sends spent checks to", () => {
    expect(toml).toMatch(/\[\[durable_objects\.bindings\]\]\nname = "SOURCE_CHECKER"\nclass_name = "SourceCheckerObject"\n/);
    expect(toml).toMatch(/\[\[migrations\]\]\ntag = "v\d+"\nnew_sqlite_classes = \["SourceCheckerObject"\]\n/);
    expect(toml).toMatch(/\[\[queues\.producers\]\]\nbinding = "SOURCE_CHECK_DLQ"\nqueue = "cairn-source-checks-dlq"\n/);
  });

  it("dead-letters to a queue this Worker consumes", () => {
    expect(consumerOf("cairn-source-checks")).toMatch(/^dead_letter_queue = "cairn-source-checks-dlq"$/m);
    expect(consumerOf("cairn-source-checks-dlq")).toContain('queue = "cairn-source-checks-dlq"');
  });

  it("runs the pending sweep's cron every five minutes", () => {
    expect(toml).toMatch(/^crons = \[.*"\*\/5 \* \* \* \*".*\]$/m);
    expect(PENDING_SWEEP.everyMs).toBe(5 * 60_000);
  });
});
