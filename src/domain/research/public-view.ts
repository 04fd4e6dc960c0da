/**
 * What may leave the org of a deliverable: one public projection that every outward face is built from — a share
 * link's page, a download — so none of them can reach for more. It holds the deliverable's title, text, media type,
 * version and date, its citations, and the sources it cites with what Cairn found on each. Nothing else of the org:
 * not its plan (no plan id, name or question), not the rest of the plan's ledger (claims, sources it never cited,
 * verdicts), not other deliverables (no "what changed" against an earlier run), not who wrote it. Pure.
 */
import type { SourceVerification } from "../sources/verification";
import { citedRefsIn, type Evidence } from "./ledger";
import type { Citation, MediaType, ResearchOutput } from "./outputs";

/** One source the deliverable cites. */
export interface PublicSource {
  /** The ledger's ref (E3), or null for a citation the plan's ledger does not hold. */
  ref: string | null;
  title: string;
  url: string | null;
  /** The words the research quotes from it (null for a citation the ledger does not hold). */
  quote: string | null;
  /** Cairn's check of the page; null for a citation never recorded as a source, so never checked. */
  verification: SourceVerification | null;
}

export interface PublicDeliverable {
  title: string;
  mediaType: MediaType;
  content: string;
  version: number;
  updatedAt: number;
  citations: Citation[];
  /** In the order cited: the ledger's sources its text or citations name, then the citations the ledger does not hold. */
  sources: PublicSource[];
}

export type PublicLedgerSource = Pick<Evidence, "ref" | "title" | "url" | "quote" | "verification">;

/**
 * The public view of one deliverable version. `evidence` is its own plan's ledger sources (empty without a plan);
 * only those the deliverable cites — an [E#] in its text or a citation's ref — are kept.
 */
export function publicDeliverable(output: Pick<ResearchOutput, "title" | "mediaType" | "content" | "version" | "updatedAt" | "citations">, evidence: readonly PublicLedgerSource[]): PublicDeliverable {
  const ledger = new Map(evidence.map((source) => [source.ref, source]));
  const refs = new Set([...citedRefsIn(output.content).evidence, ...output.citations.flatMap((c) => (c.ref && ledger.has(c.ref) ? [c.ref] : []))]);
  const fromLedger = [...refs].flatMap((ref): PublicSource[] => {
    const source = ledger.get(ref);
    return source ? [{ ref, title: source.title, url: source.url, quote: source.quote ?? null, verification: source.verification }] : [];
  });
  const others = output.citations.filter((c) => !(c.ref && ledger.has(c.ref))).map((c): PublicSource => ({ ref: null, title: c.title, url: c.url ?? null, quote: null, verification: null }));
  return {
    title: output.title,
    mediaType: output.mediaType,
    content: output.content,
    version: output.version,
    updatedAt: output.updatedAt,
    citations: output.citations.map((c) => ({ ...(c.ref ? { ref: c.ref } : {}), title: c.title, ...(c.url ? { url: c.url } : {}) })),
    sources: [...fromLedger, ...others],
  };
}
