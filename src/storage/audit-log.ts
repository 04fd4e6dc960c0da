import { newId } from "../domain/ids";
import type { AuditEntry, AuditLog } from "../domain/ports";
import type { D1Queries, Database } from "./database";
import { auditLog } from "./schema";

export const toAuditRow = (entry: AuditEntry, at: number): typeof auditLog.$inferInsert => ({
  id: newId("aud"),
  orgId: entry.orgId,
  actorUserId: entry.actorUserId,
  actorClientId: entry.actorClientId,
  action: entry.action,
  targetType: entry.targetType,
  targetId: entry.targetId,
  detail: JSON.stringify(entry.detail),
  createdAt: at,
});

export function d1AuditLog(db: Database, now: () => number): AuditLog {
  return {
    async record(entry) {
      await db.insert(auditLog).values(toAuditRow(entry, now()));
    },
  };
}

/** The audit row as a statement, to run in the batch of the write it records (the two land together or not at all). */
export function auditInsertStatement(db: D1Queries, entry: AuditEntry, at: number): D1PreparedStatement {
  const row = toAuditRow(entry, at);
  return db
    .prepare("INSERT INTO audit_log (id, org_id, actor_user_id, actor_client_id, action, target_type, target_id, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(row.id, row.orgId, row.actorUserId, row.actorClientId, row.action, row.targetType, row.targetId, row.detail, row.createdAt);
}
