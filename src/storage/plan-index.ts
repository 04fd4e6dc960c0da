import type { D1Queries } from "./database";
import type { PlanIndexEntry } from "../domain/plans/index-entry";

/**
 * The D1 projection of plans, for listing. Written only by plans' Durable
 * Objects (through their outboxes); a write with an older `seq` than the row
 * holds changes nothing, so retries and reordering are harmless.
 */
export async function upsertPlanIndex(db: D1Queries, entry: PlanIndexEntry): Promise<void> {
  await db
    .prepare(
      `INSERT INTO plans (plan_id, org_id, name, research_question, status, derived_status, progress, stalled, total_steps,
                          completed_steps, failed_steps, current_step_order, session_id, execution_id, created_by, created_at,
                          updated_at, index_seq, budget_percent, budget_exhausted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (plan_id) DO UPDATE SET
         name = excluded.name, research_question = excluded.research_question, status = excluded.status, derived_status = excluded.derived_status,
         progress = excluded.progress, stalled = excluded.stalled, total_steps = excluded.total_steps,
         completed_steps = excluded.completed_steps, failed_steps = excluded.failed_steps,
         current_step_order = excluded.current_step_order, execution_id = excluded.execution_id,
         updated_at = excluded.updated_at, index_seq = excluded.index_seq,
         budget_percent = excluded.budget_percent, budget_exhausted = excluded.budget_exhausted
       WHERE excluded.index_seq > plans.index_seq AND plans.org_id = excluded.org_id`,
    )
    .bind(
      entry.planId,
      entry.orgId,
      entry.name,
      entry.researchQuestion,
      entry.status,
      entry.derivedStatus,
      entry.progress,
      entry.stalled ? 1 : 0,
      entry.totalSteps,
      entry.completedSteps,
      entry.failedSteps,
      entry.currentStepOrder,
      entry.sessionId,
      entry.executionId,
      entry.createdBy,
      entry.createdAt,
      entry.updatedAt,
      entry.seq,
      entry.budgetPercent ?? null,
      entry.budgetExhausted ? 1 : 0,
    )
    .run();
}
