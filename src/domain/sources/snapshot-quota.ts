/**
 * The per-org cap on the bytes Cairn keeps of pages (SOURCE_SNAPSHOT_BYTES_PER_ORG): its own snapshots and the texts
 * assistants send for pages it cannot reach (sourceText), one budget whoever read the page. Each is stored once per
 * org and text (content-addressed), so only a new object counts. A check whose snapshot would pass the cap keeps no
 * copy and answers its source unchecked, saying why: old snapshots being large is no reason to lose what the
 * assistant is recording. A sourceText that would pass it refuses the call instead, saying the source can be
 * recorded without it: the text is the caller's to leave out, and a source recorded silently without it would be
 * judged differently from what the caller asked. Pure.
 */

export const SNAPSHOT_QUOTA = {
  /** Bytes of snapshots one org may keep unless the deployment says otherwise: 1 GiB. */
  defaultBytesPerOrg: 1024 ** 3,
} as const;

/** The cap a deployment sets (a positive whole number of bytes), else the default. */
export function snapshotBytesCap(setting: string | undefined): number {
  const parsed = Number(setting);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : SNAPSHOT_QUOTA.defaultBytesPerOrg;
}

/** Whether a new snapshot of `adding` bytes fits beside the `used` bytes the org keeps already. */
export const snapshotFits = (used: number, adding: number, cap: number): boolean => used + adding <= cap;

/** Bytes as a person reads them: 1 GiB, 512 MiB, 20 KiB, 300 bytes (one decimal where it is not whole). */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, "GiB"],
    [1024 ** 2, "MiB"],
    [1024, "KiB"],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** How a verdict reached at the cap begins: what the source check's client-text rule recognizes it by. */
export const SNAPSHOTS_FULL = "your organization's page snapshots are full";

/** The reason a source goes unchecked when its page's snapshot would pass the org's cap (Cairn's own words). */
export const snapshotsFullReason = (cap: number): string =>
  `${SNAPSHOTS_FULL} (${formatBytes(cap)}): Cairn read the page but keeps no new copy to check the quote against, so this source was not checked; ` +
  "an operator can raise SOURCE_SNAPSHOT_BYTES_PER_ORG";

/**
 * Why record_evidence refuses a call whose sourceText would pass the org's cap (nothing of the call is recorded):
 * what to do instead, in the caller's terms.
 */
export const clientTextsFullMessage = (cap: number): string =>
  `Your organization keeps at most ${formatBytes(cap)} of page text (SOURCE_SNAPSHOT_BYTES_PER_ORG), and the sourceText of this call would pass it, ` +
  "so nothing was recorded. Record these sources without sourceText (Cairn still reads each page itself), or ask an operator to raise the limit.";
