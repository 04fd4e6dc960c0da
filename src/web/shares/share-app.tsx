/**
 * The public page of a share link, `/s/{token}`: no sign-in, the one deliverable the link names. Rate limited per
 * link and per client address; an unknown, revoked or expired link, or one of an org that turned sharing off, answers
 * the same 404. No referrer leaves the page, it is not indexed, and its CSP is the dashboard's without scripts, forms or fetches.
 */
import { type Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import { secureHeaders } from "hono/secure-headers";
import { clientAddress } from "../../auth/sign-in";
import { locatePassage } from "../../domain/sources/passage-context";
import type { Env } from "../../env";
import { webServices } from "../../platform/runtime";
import { publicViewOf } from "../../platform/public-view";
import { countShareView, findSharedOutput } from "../../platform/shares";
import { snapshotStore } from "../../platform/sources/snapshots";
import type { PublicSource } from "../../domain/research/public-view";
import { Layout, STYLE } from "../dashboard/layout";
import type { RefLink } from "../dashboard/markdown";
import { renderedMarkdownOf } from "../dashboard/rendered-deliverable";
import { type SharedReading, type SharedSource, SharePage, ShareNotFound, sourceAnchor } from "./share-page";

type ShareApp = { Bindings: Env };
type ShareContext = Context<ShareApp>;

export const SHARE_PAGE_LIMITS = {
  /** The Rate Limiting bindings' window (wrangler.toml `[[ratelimits]]` period): how long a refused reader waits at most. */
  windowSeconds: 60,
  /** Sources whose cited passage the page quotes (each is a read of a stored page); the rest show their verification only. */
  readings: 40,
  /** Characters of a cited passage shown. */
  passageChars: 2_000,
} as const;

export const shareApp = new Hono<ShareApp>();

/**
 * The stylesheet is allowed by its hash rather than a nonce: every answer for a link that opens nothing is then the
 * same, byte for byte (a nonce would differ), so no answer tells a revoked link from one that never was.
 */
let styleHash: Promise<string> | undefined;
export const styleSource = () =>
  (styleHash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(STYLE)).then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`));

shareApp.use("*", secureHeaders({ xFrameOptions: "DENY", referrerPolicy: "no-referrer" }));

shareApp.use("*", async (c, next) => {
  await next();
  // The dashboard's policy, without scripts, forms or fetches.
  c.header("content-security-policy", `default-src 'none'; style-src ${await styleSource()}; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`);
  c.header("x-robots-tag", "noindex, nofollow");
  // A revoked link must stop answering at once: no copy kept anywhere on the way.
  c.header("cache-control", "no-store");
});

function page(c: ShareContext, title: string, body: Child, status: number) {
  const html = `<!doctype html>${String(<Layout title={title} nonce="" publicPage>{body}</Layout>)}`;
  return c.html(html, status as 200);
}

const notFound = (c: ShareContext) => page(c, "Not found", <ShareNotFound />, 404);

/** The cited passage of a source, from Cairn's stored reading of its page; null when no reading is kept. */
async function readingOf(env: Env, orgId: string, source: Omit<SharedSource, "reading">): Promise<SharedReading | null> {
  const { verification } = source;
  if (!verification.snapshot) return null;
  const snapshot = await snapshotStore(env.SOURCE_SNAPSHOTS).get(orgId, verification.snapshot);
  if (!snapshot) return null;
  const span = locatePassage(snapshot.text, { status: verification.status, passage: verification.passage ?? null }, source.quote);
  const passage = span ? snapshot.text.slice(span.start, Math.min(span.end, span.start + SHARE_PAGE_LIMITS.passageChars)) : null;
  // The stored text is shared by every URL whose page reads the same (content-addressed): label it with this source's own URL.
  return { finalUrl: snapshot.url === source.url ? snapshot.finalUrl : source.url, fetchedAt: snapshot.fetchedAt, basis: verification.basis, passage };
}

/** Readings a few at a time: a page's text can run to megabytes, and only the passage is kept. */
async function withReadings(env: Env, orgId: string, sources: Omit<SharedSource, "reading">[]): Promise<SharedSource[]> {
  const shown: SharedSource[] = [];
  for (let i = 0; i < sources.length; i += 4) {
    const batch = sources.slice(i, i + 4);
    const readings = await Promise.all(batch.map((source, j) => (i + j < SHARE_PAGE_LIMITS.readings ? readingOf(env, orgId, source) : null)));
    batch.forEach((source, j) => {
      shown.push({ ...source, reading: readings[j] ?? null });
    });
  }
  return shown;
}

const isLedgerSource = (source: PublicSource): source is Omit<SharedSource, "reading"> => source.ref !== null && source.url !== null && source.verification !== null;

async function limited(env: Env, request: Request, token: string): Promise<boolean> {
  const [address, link] = await Promise.all([
    env.SHARE_ADDRESS_RATE_LIMITER.limit({ key: `share-address:${clientAddress(request)}` }),
    env.SHARE_LINK_RATE_LIMITER.limit({ key: `share-link:${token.slice(0, 64)}` }),
  ]);
  return !address.success || !link.success;
}

shareApp.get("/:token", async (c) => {
  const token = c.req.param("token");
  if (await limited(c.env, c.req.raw, token)) {
    c.header("retry-after", String(SHARE_PAGE_LIMITS.windowSeconds));
    return page(c, "Too many requests", <p>This link was opened too often in a short time. Try again in a minute.</p>, 429);
  }
  const now = Date.now();
  const share = await findSharedOutput(c.env, token, now);
  if (!share) return notFound(c);
  const { services, home } = await webServices(c.env, share.orgId);
  const output = await services.outputs.get(share.orgId, share.outputId);
  if (!output) return notFound(c);
  // The page is built from the deliverable's public view alone: no plan, no rest of the ledger, no other deliverable.
  const [rendered, view] = await Promise.all([output.mediaType === "markdown" ? renderedMarkdownOf(home, output) : null, publicViewOf(services, output)]);
  const ledgerSources = view.sources.filter(isLedgerSource);
  const onPage = new Set(ledgerSources.map((source) => source.ref));
  // Refs lead to the sources on the page itself; claims are the plan's, not shown.
  const hrefOf: RefLink = (ref) => (onPage.has(ref) ? `#${sourceAnchor(ref)}` : null);
  const sources = await withReadings(c.env, share.orgId, ledgerSources);
  await countShareView(c.env, share.shareId, now);
  return page(c, view.title, <SharePage view={view} rendered={rendered} hrefOf={hrefOf} sources={sources} />, 200);
});

shareApp.all("*", (c) => notFound(c));
