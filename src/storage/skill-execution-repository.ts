import { and, desc, eq, getTableColumns, lt, or, type SQL, sql } from "drizzle-orm";
import type { AuditEntry, SkillExecutionQuery, SkillExecutionRepository } from "../domain/ports";
import type { SkillExecution } from "../domain/skill-executions";
import type { Database } from "./database";
import { toAuditRow } from "./audit-log";
import { auditLog, skillExecutions } from "./schema";

type Row = typeof skillExecutions.$inferSelect;

const toRecord = (row: Row): SkillExecution => ({
  executionId: row.id,
  orgId: row.orgId,
  userId: row.userId,
  clientId: row.clientId,
  skillName: row.skillName,
  status: row.status,
  sessionId: row.sessionId,
  planId: row.planId,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  errorMessage: row.errorMessage,
  closedReason: row.closedReason,
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  completedAt: row.completedAt,
});

const toRow = (execution: SkillExecution): Row => ({
  id: execution.executionId,
  orgId: execution.orgId,
  userId: execution.userId,
  clientId: execution.clientId,
  skillName: execution.skillName,
  status: execution.status,
  sessionId: execution.sessionId,
  planId: execution.planId,
  metadata: JSON.stringify(execution.metadata),
  errorMessage: execution.errorMessage,
  closedReason: execution.closedReason,
  version: execution.version,
  createdAt: execution.createdAt,
  updatedAt: execution.updatedAt,
  completedAt: execution.completedAt,
});

export function d1SkillExecutionRepository(db: Database): SkillExecutionRepository {
  const prepare = (query: { sql: string; params: unknown[] }) => db.$client.prepare(query.sql).bind(...query.params);
  const auditInsert = (entry: AuditEntry, at: number) => db.insert(auditLog).values(toAuditRow(entry, at)).toSQL();
  return {
    async insert(execution, audit) {
      await db.$client.batch([
        prepare(db.insert(skillExecutions).values(toRow(execution)).toSQL()),
        prepare(auditInsert(audit, execution.createdAt)),
      ]);
    },
    async get(orgId, executionId) {
      const row = await db
        .select()
        .from(skillExecutions)
        .where(and(eq(skillExecutions.orgId, orgId), eq(skillExecutions.id, executionId)))
        .get();
      return row ? toRecord(row) : null;
    },
    async replace(next, expectedVersion, audit) {
      const { id, orgId, createdAt: _createdAt, ...changes } = toRow(next);
      const update = db
        .update(skillExecutions)
        .set(changes)
        .where(and(eq(skillExecutions.orgId, orgId), eq(skillExecutions.id, id), eq(skillExecutions.version, expectedVersion)))
        .toSQL();
      // One batch is one transaction: the audit row is written first, and only while the version is
      // still the expected one, which also guarantees that the update after it applies.
      const entry = toAuditRow(audit, next.updatedAt);
      const guardedAudit = {
        sql: `INSERT INTO audit_log (id, org_id, actor_user_id, actor_client_id, action, target_type, target_id, detail, created_at)
              SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?
               WHERE EXISTS (SELECT 1 FROM skill_executions WHERE org_id = ? AND id = ? AND version = ?)`,
        params: [entry.id, entry.orgId, entry.actorUserId, entry.actorClientId, entry.action, entry.targetType, entry.targetId, entry.detail, entry.createdAt, orgId, id, expectedVersion],
      };
      const [audited, updated] = await db.$client.batch([prepare(guardedAudit), prepare(update)]);
      return (updated?.meta.changes ?? 0) === 1 && (audited?.meta.changes ?? 0) === 1;
    },
    async findLatestStarted(orgId, sessionId) {
      const row = await db
        .select()
        .from(skillExecutions)
        .where(and(eq(skillExecutions.orgId, orgId), eq(skillExecutions.sessionId, sessionId), eq(skillExecutions.status, "started")))
        .orderBy(desc(skillExecutions.createdAt), desc(skillExecutions.id))
        .limit(1)
        .get();
      return row ? toRecord(row) : null;
    },
    async list(orgId, query: SkillExecutionQuery) {
      const conditions: (SQL | undefined)[] = [eq(skillExecutions.orgId, orgId)];
      if (query.status) conditions.push(eq(skillExecutions.status, query.status));
      if (query.skillName) conditions.push(eq(skillExecutions.skillName, query.skillName));
      if (query.sessionId) conditions.push(eq(skillExecutions.sessionId, query.sessionId));
      if (query.planId) conditions.push(eq(skillExecutions.planId, query.planId));
      if (query.after) {
        conditions.push(
          or(
            lt(skillExecutions.createdAt, query.after.createdAt),
            and(eq(skillExecutions.createdAt, query.after.createdAt), lt(skillExecutions.id, query.after.id)),
          ),
        );
      }
      const { metadata: _metadata, ...columns } = getTableColumns(skillExecutions);
      const rows = await db
        .select({
          ...columns,
          // json_valid first: a row SQLite cannot parse reads as no topic instead of failing the whole list.
          topic: sql<string | null>`CASE WHEN json_valid(${skillExecutions.metadata}) THEN json_extract(${skillExecutions.metadata}, '$.topic') END`,
          delegatedTo: sql<string | null>`CASE WHEN json_valid(${skillExecutions.metadata}) THEN json_extract(${skillExecutions.metadata}, '$.delegatedTo') END`,
        })
        .from(skillExecutions)
        .where(and(...conditions))
        .orderBy(desc(skillExecutions.createdAt), desc(skillExecutions.id))
        .limit(query.limit);
      return rows.map(({ id, ...row }) => ({
        ...row,
        executionId: id,
        // json_extract returns numbers and objects as they are: only text is a topic.
        topic: typeof row.topic === "string" ? row.topic : null,
        delegatedTo: typeof row.delegatedTo === "string" ? row.delegatedTo : null,
      }));
    },
  };
}
