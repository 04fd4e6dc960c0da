import { describe, expect, it } from "vitest";
import { httpStatusOf } from "../errors";
import { IMPORT_LOCK_STALE_MS } from "./import-lock";
import { UNMARKED, writeRefusal } from "./write-gate";

describe("the org write gate", () => {
  const now = Date.UTC(2026, 10, 25, 12);

  it("lets writes through an unmarked org, and through one whose import lock is a dead import's", () => {
    expect(writeRefusal(undefined, now)).toBeNull();
    expect(writeRefusal(UNMARKED, now)).toBeNull();
    expect(writeRefusal({ importingSince: now - IMPORT_LOCK_STALE_MS - 1, erasingSince: null }, now)).toBeNull();
  });

  it("refuses writes while an import runs with import_in_progress, a 409 with Retry-After, saying reads keep working", () => {
    const refusal = writeRefusal({ importingSince: now - 10_000, erasingSince: null }, now);
    expect(refusal?.code).toBe("import_in_progress");
    expect(httpStatusOf(refusal?.code ?? "internal")).toBe(409);
    expect(refusal?.details.retryAfterSeconds).toBe(30);
    expect(refusal?.message).toContain("being imported");
    expect(refusal?.message).toContain("reads keep working");
    expect(refusal?.message).toContain("last active 2026-11-25T11:59:50.000Z");
  });

  it("refuses writes for good once the erasure has begun, even beside a stale import mark, with no retry hint", () => {
    for (const importingSince of [null, now - 1_000]) {
      const refusal = writeRefusal({ importingSince, erasingSince: now - 60_000 }, now);
      expect(refusal?.code).toBe("org_erasing");
      expect(httpStatusOf(refusal?.code ?? "internal")).toBe(409);
      expect(refusal?.details.retryAfterSeconds).toBeUndefined();
      expect(refusal?.message).toContain("This organization is being erased (started 2026-11-25T11:59:00.000Z)");
    }
  });
});

describe("the databases' gate, as the operations read it", () => {
  it("turns the trigger's refusal, however deep in the cause chain, into org_erasing and leaves every other error alone", async () => {
    const { DATABASE_GATE_MESSAGE, refusedByDatabaseGate } = await import("./write-gate");
    const raised = new Error(`D1_ERROR: ${DATABASE_GATE_MESSAGE}: SQLITE_CONSTRAINT`);
    expect(refusedByDatabaseGate(raised)?.code).toBe("org_erasing");
    expect(refusedByDatabaseGate(new Error("Failed query: insert into artifacts", { cause: raised }))?.message).toBe(
      "This organization is being erased: nothing more can be written to it, and everything in it is being deleted.",
    );
    expect(refusedByDatabaseGate(new Error("D1_ERROR: UNIQUE constraint failed"))).toBeNull();
    expect(refusedByDatabaseGate("cairn: organization being erased")).toBeNull();
  });
});
