import { forgetOrg } from "../../auth/admission";
import { MEMBERSHIP_CACHE_MS } from "../../domain/auth/request-limits";
import { ROW_TABLES } from "../../domain/org-data/format";
import { IMPORT_LOCK_STALE_MS, importHolds, importRunning } from "../../domain/org-data/import-lock";
import { takeBackUnfinished } from "./import-journal";
import { livesInHome } from "../../domain/org-data/placement";
import type { Env } from "../../env";
import { forgetHome, homeDatabase } from "../org-homes";
import { snapshotStore } from "../sources/snapshots";

/** The research of an org; its API keys, audit trail and tool-call log go only with the org itself. */
const RESEARCH_TABLES = ROW_TABLES.filter((table) => table !== "api_keys" && table !== "audit_log" && table !== "tool_call_log");
/** Where each lives: the org's home database, or the directory (the search-session index). */
const HOME_RESEARCH_TABLES = RESEARCH_TABLES.filter(livesInHome);
const DIRECTORY_RESEARCH_TABLES = RESEARCH_TABLES.filter((table) => !livesInHome(table));

const DASHBOARD_SESSION_PREFIX = "cairn:dash:session:";
const PAGE = 200;

/**
 * Erases an org's research: every plan's and search session's object storage
 * (`deleteAll`), then its rows in every research table (not its API keys,
 * audit trail or tool-call log) (the full-text indexes
 * follow through their triggers). Objects first, rows last, so an interrupted
 * erasure is finished by running it again: the rows still name what is left.
 */
export async function eraseResearch(env: Env, orgId: string): Promise<{ plans: number; sessions: number }> {
  const home = await homeDatabase(env, orgId);
  const plans = await eraseObjects(home, "SELECT rowid AS r, plan_id AS id FROM plans WHERE org_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3", orgId, (id) =>
    env.PLAN.get(env.PLAN.idFromName(`${orgId}:${id}`)).erase(),
  );
  const sessions = await eraseObjects(env.DB, "SELECT rowid AS r, session_id AS id FROM search_sessions WHERE org_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3", orgId, (id) =>
    env.SEARCH_SESSION.get(env.SEARCH_SESSION.idFromName(`${orgId}:${id}`)).erase(),
  );
  // One batch per database: D1 runs each as a transaction, so no half-erased research is ever visible in it.
  // The deliverables' cited sources are not exported (an import rebuilds them), nor their kept renders (a cache), so
  // neither is among the row tables; nor are plans' schedules and their runs' links (the runs are plans, exported).
  await home.batch([...HOME_RESEARCH_TABLES, "research_output_sources", "rendered_outputs", "rendered_files", "plan_schedules", "plan_series_runs"].map((table) => home.prepare(`DELETE FROM ${table} WHERE org_id = ?`).bind(orgId)));
  // The deliverables' share links live in the directory and are not exported (a link is a credential): they go with them.
  await env.DB.batch([...DIRECTORY_RESEARCH_TABLES, "output_shares"].map((table) => env.DB.prepare(`DELETE FROM ${table} WHERE org_id = ?`).bind(orgId)));
  // Snapshots of the org's cited pages, after the rows naming them: a source check still running then finds its row
  // gone or its org erasing, and deletes what it wrote itself (platform/sources/check-source.ts).
  await snapshotStore(env.SOURCE_SNAPSHOTS).eraseOrg(orgId);
  return { plans, sessions };
}

async function eraseObjects(db: D1Database, sql: string, orgId: string, erase: (id: string) => Promise<void>): Promise<number> {
  let after = 0;
  let erased = 0;
  for (;;) {
    const { results } = await db.prepare(sql).bind(orgId, after, PAGE).all<{ r: number; id: string }>();
    for (const row of results) {
      await erase(row.id);
      after = row.r;
      erased++;
    }
    if (results.length < PAGE) return erased;
  }
}

/**
 * Erases an org entirely, in an order that leaves nothing behind even while its members are still calling:
 *  1. marks the org (`erasing_since`, in the directory and in the home's copy of the org row): from here its
 *     callers are refused at admission (the erasure itself excepted), a write already under way by the
 *     operations' write gate or by the databases themselves (migration 0018), and no sign-in or consent into
 *     the org is granted;
 *  2. cuts access: its members' OAuth grants for it (with their tokens) and its dashboard sessions; its API
 *     keys are refused everything but this erasure from the mark on, and deleted with the org in the last batch,
 *     so an interrupted erasure can be run again with the key that started it (this isolate's memory of
 *     verified tokens and memberships forgets the org at once); then it waits until every
 *     other isolate's memory of a membership has lapsed, so no call admitted before the cut is still starting;
 *  3. deletes: its research (above), webhook subscriptions, delivery log and unsent events, audit trail and tool-call log,
 *     memberships, users who belong to no other org, and the org itself.
 * Memberships go last so that an interrupted erasure can be finished by running it again (the operator's CLI
 * acts through an admin's membership); a rerun carries on under the first mark. Other orgs are untouched.
 */
export async function eraseOrg(env: Env, orgId: string): Promise<{ plans: number; sessions: number; members: number }> {
  // Resolved before the mark: a home not yet chosen gets its copy of the org row now, so the mark reaches it too.
  const home = await homeDatabase(env, orgId);
  await markErasing(env.DB, home, orgId);
  forgetOrg(orgId);

  const { results: members } = await env.DB.prepare("SELECT user_id FROM memberships WHERE org_id = ?").bind(orgId).all<{ user_id: string }>();
  for (const { user_id } of members) await revokeGrantsFor(env, orgId, user_id);
  await eraseDashboardSessions(env.OAUTH_KV, orgId);
  // API keys stay until the org itself goes (the last batch): from the mark on, admission refuses them
  // everything but running this erasure again, so an admin whose erasure was cut off can finish it with
  // the key that started it, and no key outlives the org.
  forgetOrg(orgId);
  await settle(env);

  // An import that died half-way into the org may have recreated plans and search sessions its rows do not name yet:
  // its journal does, so they go too (its rows would go with the org's anyway).
  await takeBackUnfinished(env, home, orgId, null);
  const research = await eraseResearch(env, orgId);
  const { results: onlyHere } = await env.DB.prepare(
    "SELECT user_id FROM memberships WHERE org_id = ?1 AND user_id NOT IN (SELECT user_id FROM memberships WHERE org_id <> ?1)",
  )
    .bind(orgId)
    .all<{ user_id: string }>();
  // The home's rows first (its audit trail, and its copy of the org row unless it is the directory itself), the directory last:
  // an interrupted erasure still finds the org, and its home, when run again.
  await home.batch([
    home.prepare("DELETE FROM audit_log WHERE org_id = ?").bind(orgId),
    // Events not yet handed to the queue: nobody is left to receive them.
    home.prepare("DELETE FROM webhook_event_outbox WHERE org_id = ?").bind(orgId),
    home.prepare("DELETE FROM org_import_journal WHERE org_id = ?").bind(orgId),
    ...(home === env.DB ? [] : [home.prepare("DELETE FROM orgs WHERE id = ?").bind(orgId)]),
  ]);
  // Memberships and keys before the users and the org they refer to (foreign keys).
  await env.DB.batch([
    env.DB.prepare("DELETE FROM tool_call_log WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM org_import_usage WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM org_import_journal WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM webhook_deliveries WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM webhook_subscriptions WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM notification_deliveries WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM notification_channels WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM notification_preferences WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM notification_daily_usage WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM org_sso_domains WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM org_sso WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM memberships WHERE org_id = ?").bind(orgId),
    env.DB.prepare("DELETE FROM api_keys WHERE org_id = ?").bind(orgId),
    ...onlyHere.map(({ user_id }) => env.DB.prepare("DELETE FROM users WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = ?)").bind(user_id, user_id)),
    env.DB.prepare("DELETE FROM orgs WHERE id = ?").bind(orgId),
  ]);
  forgetOrg(orgId);
  forgetHome(orgId);
  return { ...research, members: members.length };
}

/**
 * Waits until no isolate can still admit a caller of the org from its memory (MEMBERSHIP_CACHE_MS, or
 * ORG_ERASURE_SETTLE_MS where a deployment or test sets it), so the calls that could still write have begun
 * before the deletions do. A call that began earlier and lands later is refused by the databases' gate.
 */
async function settle(env: Env): Promise<void> {
  const configured = Number(env.ORG_ERASURE_SETTLE_MS);
  const ms = env.ORG_ERASURE_SETTLE_MS !== undefined && Number.isFinite(configured) && configured >= 0 ? configured : MEMBERSHIP_CACHE_MS;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Marks the org as being erased, in the same statement that checks no import holds it: an import
 * then refuses to start (its rows, written after the erasure's, would be left behind), while a rerun
 * of a stopped erasure carries on under the first mark. Refused while an import runs (its heartbeat is fresh);
 * an import whose heartbeat is stale died, and what it wrote is taken back before the research is erased. The home's copy
 * of the org row is marked after the directory (the one writer), so its database refuses the org's rows too.
 */
async function markErasing(directory: D1Database, home: D1Database, orgId: string): Promise<void> {
  const now = Date.now();
  // Twice at most: an import that ends between the mark and the look that follows is no reason to refuse.
  for (let attempt = 0; attempt < 2; attempt++) {
    const marked = await directory
      .prepare("UPDATE orgs SET erasing_since = COALESCE(erasing_since, ?1) WHERE id = ?2 AND (importing_since IS NULL OR COALESCE(import_heartbeat_at, importing_since) < ?3) RETURNING erasing_since")
      .bind(now, orgId, now - IMPORT_LOCK_STALE_MS)
      .first<{ erasing_since: number }>();
    if (marked) {
      if (home !== directory) await home.prepare("UPDATE orgs SET erasing_since = COALESCE(erasing_since, ?) WHERE id = ?").bind(marked.erasing_since, orgId).run();
      return;
    }
    const row = await directory
      .prepare("SELECT importing_since, import_heartbeat_at FROM orgs WHERE id = ?")
      .bind(orgId)
      .first<{ importing_since: number | null; import_heartbeat_at: number | null }>();
    // No org row: an erasure that got that far; running the rest again is harmless.
    if (!row) return;
    if (row.importing_since !== null && importHolds(row.import_heartbeat_at ?? row.importing_since, now)) {
      throw importRunning(row.importing_since, "An import into this organization is running");
    }
  }
}

/** Revokes a person's OAuth grants that were consented for one org (grants for their other orgs stay). */
export async function revokeGrantsFor(env: Env, orgId: string, userId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await env.OAUTH_PROVIDER.listUserGrants(userId, { limit: 1000, ...(cursor ? { cursor } : {}) });
    const ofOrg = page.items.filter((grant) => (grant.metadata as { orgId?: unknown } | null)?.orgId === orgId);
    await Promise.all(ofOrg.map((grant) => env.OAUTH_PROVIDER.revokeGrant(grant.id, userId)));
    cursor = page.cursor;
  } while (cursor);
}

async function eraseDashboardSessions(kv: KVNamespace, orgId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: DASHBOARD_SESSION_PREFIX, ...(cursor ? { cursor } : {}) });
    for (const key of page.keys) {
      const record = await kv.get<{ orgId?: string }>(key.name, "json");
      if (record?.orgId === orgId) await kv.delete(key.name);
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}
