import { z } from "zod";
import type { SourceSnapshotReader } from "../domain/ports";
import type { Evidence } from "../domain/research/ledger";
import { type PassageInContext, passageInContext } from "../domain/sources/passage-context";

/** The page's text either side of a source's located passage (untrusted, like the passage). */
export const PassageContextView = z.object({ before: z.string(), after: z.string() });

/** Each bracket of the quote with the page words it stands for ("" for none; the page's text, untrusted). */
export const QuoteEditsView = z.array(z.object({ bracket: z.string(), replaces: z.string() }));

/** A verdict's edits where it has any (a face showing the passage shows them beside it). */
export const editsShown = (edits: Evidence["verification"]["edits"]) => (edits && edits.length > 0 ? { edits } : {});

/** A cited source as a claim read shows it: its check status and, where located, its passage in the page's words with context. */
export const SourcePassageView = z.object({
  ref: z.string(),
  status: z.string(),
  passage: z.string().optional(),
  context: PassageContextView.optional(),
  edits: QuoteEditsView.optional(),
});

/**
 * The located passage of each source with a snapshot, found again in the snapshot's text with the text around it;
 * sources with none (unreachable, checked against the assistant's text, pending) are left out. Each snapshot is
 * read once however many sources share it; a snapshot no longer stored, or not readable now, gives no passage.
 */
export async function passagesInContext(snapshots: SourceSnapshotReader, orgId: string, sources: readonly Evidence[]): Promise<Map<string, PassageInContext | null>> {
  const hashes = [...new Set(sources.flatMap((s) => (s.verification.snapshot ? [s.verification.snapshot] : [])))];
  // The context is an aid beside the ledger: a snapshot that cannot be read now leaves its passage out, never the read.
  const textOf = (sha256: string) =>
    snapshots.text(orgId, sha256).catch((error: unknown) => {
      console.log(JSON.stringify({ level: "warn", message: "snapshot not read; its passage is left out", orgId, sha256, error: String(error) }));
      return null;
    });
  const texts = new Map(await Promise.all(hashes.map(async (sha256) => [sha256, await textOf(sha256)] as const)));
  const found = new Map<string, PassageInContext | null>();
  for (const source of sources) {
    const text = source.verification.snapshot ? texts.get(source.verification.snapshot) : null;
    if (text == null) continue;
    found.set(source.ref, passageInContext(text, source.verification, source.quote));
  }
  return found;
}

/** A claim's cited sources that have a snapshot, in the order it cites them. */
export const sourcePassageViews = (
  refs: readonly string[],
  byRef: ReadonlyMap<string, Evidence>,
  found: ReadonlyMap<string, PassageInContext | null>,
): z.infer<typeof SourcePassageView>[] =>
  refs.flatMap((ref) => {
    const source = byRef.get(ref);
    if (!source || !found.has(ref)) return [];
    const located = found.get(ref);
    return [
      {
        ref,
        status: source.verification.status,
        ...(located ? { passage: located.passage, context: located.context, ...editsShown(source.verification.edits) } : {}),
      },
    ];
  });
