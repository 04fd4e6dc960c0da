import { newId } from "../domain/ids";
import type { AuditEntry, AuditLog } from "../domain/ports";
import type { Database } from "./database";
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
