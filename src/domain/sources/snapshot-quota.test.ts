import { describe, expect, it } from "vitest";
import { clientTextApplies, unchecked } from "./verification";
import { clientTextsFullMessage, formatBytes, SNAPSHOT_QUOTA, SNAPSHOTS_FULL, snapshotBytesCap, snapshotFits, snapshotsFullReason } from "./snapshot-quota";

describe("snapshot quota", () => {
  it("reads the deployment's cap, falling back to 1 GiB for anything that is not a positive whole number", () => {
    expect(snapshotBytesCap("2048")).toBe(2048);
    for (const setting of [undefined, "", "0", "-5", "1.5", "lots", "1e400"]) expect(snapshotBytesCap(setting), String(setting)).toBe(SNAPSHOT_QUOTA.defaultBytesPerOrg);
    expect(SNAPSHOT_QUOTA.defaultBytesPerOrg).toBe(1024 ** 3);
  });

  it("lets a snapshot in up to the cap exactly, and not a byte past it", () => {
    expect(snapshotFits(0, 100, 100)).toBe(true);
    expect(snapshotFits(60, 40, 100)).toBe(true);
    expect(snapshotFits(60, 41, 100)).toBe(false);
    expect(snapshotFits(100, 1, 100)).toBe(false);
  });

  it("says the cap in the units a person reads", () => {
    expect(formatBytes(1024 ** 3)).toBe("1 GiB");
    expect(formatBytes(1.5 * 1024 ** 3)).toBe("1.5 GiB");
    expect(formatBytes(512 * 1024 ** 2)).toBe("512 MiB");
    expect(formatBytes(20 * 1024)).toBe("20 KiB");
    expect(formatBytes(300)).toBe("300 bytes");
    expect(snapshotsFullReason(1024 ** 3)).toMatch(new RegExp(`^${SNAPSHOTS_FULL} \\(1 GiB\\): .*SOURCE_SNAPSHOT_BYTES_PER_ORG$`));
  });

  it("refuses a sourceText past the cap naming the cap and the setting, and saying the source can be recorded without it", () => {
    const message = clientTextsFullMessage(512 * 1024 ** 2);
    expect(message).toContain("at most 512 MiB of page text (SOURCE_SNAPSHOT_BYTES_PER_ORG)");
    expect(message).toContain("nothing was recorded");
    expect(message).toContain("without sourceText");
  });

  it("does not let the assistant's text stand in for a page Cairn read but could keep no copy of", () => {
    expect(clientTextApplies(unchecked(snapshotsFullReason(1024), 1), "a quote")).toBe(false);
    // A kind of content Cairn cannot read still lets it (the rule this one narrows).
    expect(clientTextApplies(unchecked("PDF has no text layer", 1), "a quote")).toBe(true);
  });
});
