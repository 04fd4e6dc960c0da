import type { Env } from "../../env";
import { d1EvidenceLedger } from "../../storage/ledger-repository";
import { homeDatabase } from "../org-homes";
import { sourceCheckQueue } from "./producer";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * After an import: the org's sources without a verdict (an import never carries one) are marked pending and
 * handed to the source-check queue, as many as the org's daily check budget leaves; the rest stay unchecked.
 * Returns how many were queued. A send that fails leaves them pending (a strict deliverable sends them again).
 */
export async function queueImportedSourceChecks(env: Env, orgId: string, now: number): Promise<number> {
  const home = await homeDatabase(env, orgId);
  const queue = sourceCheckQueue(env);
  const used = await d1EvidenceLedger(home).sourceCheckRequests(orgId, { minute: now - 60_000, day: now - DAY_MS });
  const room = Math.max(0, queue.limits.perDay - used.lastDay);
  if (room === 0) return 0;
  const { results } = await home
    .prepare(
      `UPDATE ledger_evidence SET verification_status = 'pending', verification_requested_at = ?1
        WHERE rowid IN (SELECT rowid FROM ledger_evidence WHERE org_id = ?2 AND verification_status IS NULL ORDER BY rowid LIMIT ?3)
        RETURNING plan_id, n`,
    )
    .bind(now, orgId, room)
    .all<{ plan_id: string; n: number }>();
  try {
    await queue.enqueue(results.map((row) => ({ orgId, planId: row.plan_id, n: row.n })));
  } catch (error) {
    console.log(JSON.stringify({ level: "warn", message: "imported source checks not queued; they stay pending", orgId, error: String(error) }));
  }
  return results.length;
}
