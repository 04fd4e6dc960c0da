import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { SkillExecutionQuery, SkillExecutionRepository } from "../domain/ports";
import type { SkillExecution } from "../domain/skill-executions";
import type { Database } from "./database";
import { skillExecutions } from "./schema";

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
  return {
    async insert(execution) {
      await db.insert(skillExecutions).values(toRow(execution));
    },
    async get(orgId, executionId) {
      const row = await db
        .select()
        .from(skillExecutions)
        .where(and(eq(skillExecutions.orgId, orgId), eq(skillExecutions.id, executionId)))
        .get();
      return row ? toRecord(row) : null;
    },
    async replace(next, expectedVersion) {
      const { id, orgId, createdAt: _createdAt, ...changes } = toRow(next);
      const updated = await db
        .update(skillExecutions)
        .set(changes)
        .where(
          and(eq(skillExecutions.orgId, orgId), eq(skillExecutions.id, id), eq(skillExecutions.version, expectedVersion)),
        )
        .returning({ id: skillExecutions.id });
      return updated.length === 1;
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
      const rows = await db
        .select()
        .from(skillExecutions)
        .where(and(...conditions))
        .orderBy(desc(skillExecutions.createdAt), desc(skillExecutions.id))
        .limit(query.limit);
      return rows.map(toRecord);
    },
  };
}
