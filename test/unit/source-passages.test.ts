import { describe, expect, it } from "vitest";
import type { SourceSnapshotReader } from "../../src/domain/ports";
import type { Evidence } from "../../src/domain/research/ledger";
import { PENDING } from "../../src/domain/sources/verification";
import { passagesInContext } from "../../src/operations/source-passages";

const PAGE = "In March, the team reported that solid-state cells reached 500 Wh/kg in the lab, a record for the chemistry.";
const source = (ref: string, snapshot: string): Evidence =>
  ({
    ref,
    quote: "solid-state cells reached 500 Wh/kg in the lab",
    verification: { ...PENDING, status: "verified", score: 1, passage: "solid-state cells reached 500 Wh/kg in the lab", basis: "fetched", snapshot, checkedAt: 1 },
  }) as unknown as Evidence;

describe("passages in context for a claim read", () => {
  it("leaves out the passage of a snapshot that cannot be read now, and still answers with the others", async () => {
    const [good, broken] = ["a".repeat(64), "b".repeat(64)];
    const reads: string[] = [];
    const snapshots: SourceSnapshotReader = {
      async text(_orgId, sha256) {
        reads.push(sha256);
        if (sha256 === broken) throw new Error("R2 is unavailable");
        return PAGE;
      },
    };
    const found = await passagesInContext(snapshots, "org_x", [source("E1", good), source("E2", broken), source("E3", good)]);
    expect(found.get("E1")?.context.before).toContain("the team reported that");
    expect(found.get("E3")?.passage).toBe("solid-state cells reached 500 Wh/kg in the lab");
    expect(found.has("E2")).toBe(false);
    // Each snapshot is read once, however many sources share it.
    expect(reads.sort()).toEqual([good, broken]);
  });
});
