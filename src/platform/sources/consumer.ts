import { CairnError } from "../../domain/errors";
import type { OutboundPolicy } from "../../domain/outbound-address";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import type { SourceCheckMessage } from "../../domain/ports";
import { snapshotBytesCap } from "../../domain/sources/snapshot-quota";
import { judgeSource, readableKind, SOURCE_CHECK_LIMITS, type SourceVerification, unchecked, unreachable } from "../../domain/sources/verification";
import type { Env } from "../../env";
import { d1EvidenceLedger } from "../../storage/ledger-repository";
import { d1OrgSettings } from "../../storage/org-settings";
import { d1SnapshotBytes } from "../../storage/snapshot-bytes";
import { homeDatabase } from "../org-homes";
import { recordVerdict } from "./after-verdict";
import { clientTextStore, withClientText } from "./client-texts";
import { fetchPage } from "./fetch-page";
import { type SnapshotQuota, type SnapshotStore, snapshotStore } from "./snapshots";
import { readPage } from "./visible-text";

/** The source-check queue as wrangler.toml names it (a deployment names it after its Worker: "<worker>-source-checks"). */
export const SOURCE_CHECK_QUEUE_NAME = "cairn-source-checks";
export const isSourceCheckQueue = (name: string) => name === SOURCE_CHECK_QUEUE_NAME || name.endsWith("-source-checks");

const log = (level: "info" | "warn" | "error", message: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ level, message, ...fields }));

interface Checker {
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

/** What the page at `url` says about the source: a snapshot of the org reused within the window, else a fresh fetch. */
async function verdictFor(
  checker: Checker,
  orgId: string,
  source: { url: string; title: string; quote: string | null },
  now: number,
  quota: SnapshotQuota,
  reuseSince = now - SOURCE_CHECK_LIMITS.reuseWindowMs,
): Promise<SourceVerification> {
  const recent = await checker.store.recent(orgId, source.url, reuseSince);
  if (recent && "snapshot" in recent) return judgeSource(source, { text: recent.snapshot.text, title: recent.snapshot.title, snapshot: recent.snapshot.sha256 }, now);
  if (recent) return unchecked(recent.unchecked, now);

  const rules = { outbound: checker.policy, allowedHosts: checker.allowedHosts, blockedDomains: await checker.blockedDomains(orgId) };
  const page = await fetchPage(source.url, rules, checker.userAgent, SOURCE_CHECK_LIMITS);
  if (!page.ok) return unreachable(page.reason, now);
  const declared = readableKind(page.contentType, page.body);
  // No content type and a NUL byte early on: an image or archive, not text to search.
  const kind = declared === "text" && !page.contentType && page.body.subarray(0, 1024).includes(0) ? { unchecked: "binary content without a content type" } : declared;
  const read = typeof kind === "string" ? await readPage(kind, page.body, page.contentType, page.truncated) : kind;
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

/**
 * The consumer of the source-check queue: for each recorded source, fetch (or reuse) the page, match the
 * quote, and write the verdict on the evidence row. A source gone meanwhile (its plan deleted, its org erased)
 * is skipped; anything else that fails is retried by the queue.
 */
export async function handleSourceChecks(batch: MessageBatch<SourceCheckMessage>, env: Env): Promise<void> {
  const checker: Checker = {
    store: snapshotStore(env.SOURCE_SNAPSHOTS),
    // The one outbound gate: loopback (local fixtures) only where CAIRN_ENV is exactly "development".
    policy: outboundPolicyFor(env.CAIRN_ENV, "source_check"),
    allowedHosts: allowedHostsOf(env.SOURCE_CHECK_HOSTS),
    blockedDomains: async (orgId) => (await d1OrgSettings(env.DB).sourcePolicy(orgId)).blockedDomains,
    snapshotCap: snapshotBytesCap(env.SOURCE_SNAPSHOT_BYTES_PER_ORG),
    userAgent: `Cairn-SourceCheck/1 (+${env.PUBLIC_URL || "https://github.com/cairn"}; checks that cited pages contain the quoted words)`,
  };
  // One at a time: a second source on the same page then reuses the snapshot the first one stored.
  const batchStarted = Date.now();
  for (const message of batch.messages) {
    const { orgId, planId, n } = message.body;
    try {
      const home = await homeDatabase(env, orgId);
      const ledger = d1EvidenceLedger(home);
      const source = await ledger.sourceToCheck(orgId, planId, n);
      if (source) {
        // A re-check reads the page again (the point is what it says now): only a fetch of this very batch is reused.
        const now = Date.now();
        const quota = { bytes: d1SnapshotBytes(home), cap: checker.snapshotCap };
        const cairns = await verdictFor(checker, orgId, source, now, quota, message.body.recheck ? batchStarted : undefined);
        await recordVerdict(env, home, ledger, message.body, await withClientText(cairns, source, clientTextStore(env.SOURCE_SNAPSHOTS, quota), orgId, now));
        // An erasure that began while the page was fetched may have deleted the org's snapshots before this one was stored.
        if (await orgErasing(home, orgId)) await checker.store.eraseOrg(orgId);
      }
      message.ack();
    } catch (error) {
      if (error instanceof CairnError && error.code === "not_found") {
        message.ack();
        continue;
      }
      log("error", "source check failed; retried", { orgId, planId, n, error: String(error) });
      message.retry();
    }
  }
}
