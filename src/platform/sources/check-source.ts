import type { OutboundPolicy } from "../../domain/outbound-address";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import type { SourceCheckMessage } from "../../domain/ports";
import { CHECK_FAILURE_REASONS } from "../../domain/sources/check-scheduling";
import { mayDefer } from "../../domain/sources/fetch-retry";
import { mayReuseKeptPage, type SourceFetchRules } from "../../domain/sources/fetch-rules";
import { snapshotBytesCap } from "../../domain/sources/snapshot-quota";
import { judgeSource, type ReadableKind, readableKind, SOURCE_CHECK_LIMITS, type SourceVerification, unchecked, unreachable } from "../../domain/sources/verification";
import type { Env } from "../../env";
import { d1EvidenceLedger } from "../../storage/ledger-repository";
import { d1OrgSettings } from "../../storage/org-settings";
import { d1SnapshotBytes } from "../../storage/snapshot-bytes";
import { homeDatabase } from "../org-homes";
import { recordVerdict } from "./after-verdict";
import { clientTextStore, withClientText } from "./client-texts";
import { type FetchedPage, fetchPage } from "./fetch-page";
import { type SnapshotQuota, type SnapshotStore, snapshotStore } from "./snapshots";
import { readPage } from "./visible-text";
import { log } from "../log";

/**
 * One source check: fetch (or reuse) the cited page, match the quote, and write the verdict on the evidence row. The
 * org's checker (durable-objects/source-checker-object.ts) runs it; it throws when Cairn's side fails (the checker
 * retries) and a source gone meanwhile is reported, not checked.
 */

export interface Checker {
  store: SnapshotStore;
  policy: OutboundPolicy;
  userAgent: string;
  allowedHosts: ReadonlySet<string> | null;
  /** The org's blocked domains, read when a page is fetched (its source policy holds for every hop of the fetch). */
  blockedDomains: (orgId: string) => Promise<readonly string[]>;
  /** SOURCE_SNAPSHOT_BYTES_PER_ORG. */
  snapshotCap: number;
}

/** SOURCE_CHECK_HOSTS: a comma-separated list of hosts source checks may fetch from (unset: any public host). */
function allowedHostsOf(setting: string | undefined): ReadonlySet<string> | null {
  const hosts = (setting ?? "").split(",").map((host) => host.trim().toLowerCase()).filter(Boolean);
  return hosts.length ? new Set(hosts) : null;
}

/**
 * The page's text, or why it cannot be read: a reader that fails on a page (hostile or broken content) gives the
 * same answer on every try, so the source ends unchecked at once instead of spending the checker's retries.
 */
async function readOrExplain(kind: ReadableKind, page: { body: Uint8Array; contentType: string | null; truncated: boolean }) {
  try {
    return await readPage(kind, page.body, page.contentType, page.truncated);
  } catch (error) {
    log("warn", "a fetched page could not be read", { error: String(error).slice(0, 300) });
    return { unchecked: CHECK_FAILURE_REASONS.unreadable };
  }
}

/**
 * Fetches of one page under the same rules, shared: checks of one URL in flight wait for one fetch (its retries
 * included). `pageFetches`: the fetches the checker's checks of one page share while they run one after another, so a
 * fetch that failed answers the checks queued behind it instead of a fetch (and its retries) each.
 */
const inFlight = new Map<string, Promise<FetchedPage>>();

export type PageFetches = Map<string, Promise<FetchedPage>>;

function sharedFetch(url: string, rules: SourceFetchRules, userAgent: string, pageFetches?: PageFetches): Promise<FetchedPage> {
  const key = JSON.stringify([url, userAgent, rules.outbound, rules.allowedHosts ? [...rules.allowedHosts] : null, rules.blockedDomains]);
  const shared = pageFetches?.get(key) ?? inFlight.get(key);
  if (shared) return shared;
  const fetching = fetchPage(url, rules, userAgent, SOURCE_CHECK_LIMITS).finally(() => inFlight.delete(key));
  inFlight.set(key, fetching);
  pageFetches?.set(key, fetching);
  return fetching;
}

/** A check the page asked to be read again later (`Retry-After`), put off that long while its bound allows. */
export interface CheckPutOff {
  putOffMs: number;
}

/** What the page at `url` says about the source: a snapshot of the org reused within the window, else a fresh fetch. */
async function verdictFor(
  checker: Checker,
  orgId: string,
  source: { url: string; title: string; quote: string | null },
  now: number,
  quota: SnapshotQuota,
  askedAt: number,
  pageFetches: PageFetches | undefined,
  reuseSince = now - SOURCE_CHECK_LIMITS.reuseWindowMs,
): Promise<SourceVerification | CheckPutOff> {
  const recent = await checker.store.recent(orgId, source.url, reuseSince);
  if (recent && "unchecked" in recent) return unchecked(recent.unchecked, now);
  const rules = { outbound: checker.policy, allowedHosts: checker.allowedHosts, blockedDomains: await checker.blockedDomains(orgId) };
  // A kept page answers only while its addresses pass today's rules (a domain blocked since sends the check to read again).
  if (recent && mayReuseKeptPage({ url: source.url, finalUrl: recent.finalUrl }, rules)) {
    return judgeSource(source, { text: recent.snapshot.text, title: recent.snapshot.title, snapshot: recent.snapshot.sha256 }, now);
  }

  const page = await sharedFetch(source.url, rules, checker.userAgent, pageFetches);
  if (!page.ok && page.retryAfterMs !== undefined && mayDefer(askedAt, Date.now(), page.retryAfterMs)) return { putOffMs: page.retryAfterMs };
  if (!page.ok) return unreachable(page.reason, now);
  const declared = readableKind(page.contentType, page.body);
  // No content type and a NUL byte early on: an image or archive, not text to search.
  const kind = declared === "text" && !page.contentType && page.body.subarray(0, 1024).includes(0) ? { unchecked: "binary content without a content type" } : declared;
  const read = typeof kind === "string" ? await readOrExplain(kind, page) : kind;
  if ("unchecked" in read) {
    await checker.store.saveUnchecked(orgId, source.url, read.unchecked, null, now);
    return unchecked(read.unchecked, now);
  }
  const { text, title } = read;
  const snapshot = await checker.store.save(orgId, {
    url: source.url,
    finalUrl: page.finalUrl,
    status: page.status,
    contentType: page.contentType,
    title,
    fetchedAt: now,
    truncated: page.truncated,
    text,
  }, quota);
  if ("full" in snapshot) return unchecked(snapshot.full, now);
  const verdict = judgeSource(source, { text, title, snapshot: snapshot.sha256 }, now);
  if (page.truncated && verdict.status !== "verified") {
    verdict.reason = `${verdict.reason ?? "not found"} (only the first ${SOURCE_CHECK_LIMITS.maxBytes / 1024 / 1024} MiB of the page were read)`;
  }
  return verdict;
}

async function orgErasing(home: D1Database, orgId: string): Promise<boolean> {
  const row = await home.prepare("SELECT erasing_since FROM orgs WHERE id = ?").bind(orgId).first<{ erasing_since: number | null }>();
  return !row || row.erasing_since !== null;
}

export function checkerOf(env: Env): Checker {
  return {
    store: snapshotStore(env.SOURCE_SNAPSHOTS),
    // The one outbound gate: loopback (local fixtures) only where CAIRN_ENV is exactly "development".
    policy: outboundPolicyFor(env.CAIRN_ENV, "source_check"),
    allowedHosts: allowedHostsOf(env.SOURCE_CHECK_HOSTS),
    blockedDomains: async (orgId) => (await d1OrgSettings(env.DB).sourcePolicy(orgId)).blockedDomains,
    snapshotCap: snapshotBytesCap(env.SOURCE_SNAPSHOT_BYTES_PER_ORG),
    userAgent: `Cairn-SourceCheck/1 (+${env.PUBLIC_URL || "https://github.com/cairn"}; checks that cited pages contain the quoted words)`,
  };
}

type Source = NonNullable<Awaited<ReturnType<ReturnType<typeof d1EvidenceLedger>["sourceToCheck"]>>>;

export interface CheckReady {
  home: D1Database;
  ledger: ReturnType<typeof d1EvidenceLedger>;
  source: Source;
}

/** The message's source, read before its page is fetched (checks of one page are run one after another); null when it is gone. */
export async function sourceToCheck(env: Env, body: SourceCheckMessage): Promise<CheckReady | null> {
  const home = await homeDatabase(env, body.orgId);
  const ledger = d1EvidenceLedger(home);
  const source = await ledger.sourceToCheck(body.orgId, body.planId, body.n);
  return source ? { home, ledger, source } : null;
}

/**
 * Checks the source and records its verdict. `askedAt`: when the check was asked for; a re-check reads the page again
 * (the point is what it says now), reusing only a fetch made since. A first check reuses the org's snapshot of the last
 * hour. A page answering 429 or 503 with a `Retry-After` longer than a fetch waits puts the check off (returned, and
 * nothing recorded) while it can still end in a verdict within its bound.
 */
export async function checkSource(
  env: Env,
  checker: Checker,
  body: SourceCheckMessage,
  item: CheckReady,
  askedAt: number,
  pageFetches?: PageFetches,
): Promise<CheckPutOff | null> {
  const { home, ledger, source } = item;
  const { orgId } = body;
  const now = Date.now();
  const quota = { bytes: d1SnapshotBytes(home), cap: checker.snapshotCap };
  const cairns = await verdictFor(checker, orgId, source, now, quota, askedAt, pageFetches, body.recheck ? askedAt : undefined);
  if ("putOffMs" in cairns) return cairns;
  await recordVerdict(env, home, ledger, body, await withClientText(cairns, source, clientTextStore(env.SOURCE_SNAPSHOTS, quota), orgId, now));
  // An erasure that began while the page was fetched may have deleted the org's snapshots before this one was stored.
  if (await orgErasing(home, orgId)) await checker.store.eraseOrg(orgId);
  return null;
}
