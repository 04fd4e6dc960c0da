import type { D1Queries } from "./database";
import { notFound } from "../domain/errors";
import { NO_PLAN_HERE, type PlanEngine, type PlanIndex } from "../domain/plans/engine";
import type { PlanIndexEntry } from "../domain/plans/index-entry";
import { fromRpcError, type RpcResult } from "../domain/rpc-result";
import type { Env } from "../env";

/** The Durable Object of a plan: named by org and plan, so a handle from another org reaches an empty object. */
const stubFor = (namespace: Env["PLAN"], orgId: string, planId: string) => namespace.getByName(`${orgId}:${planId}`);

function unwrap<T>(result: RpcResult<T>, planId: string): T {
  if (result.ok) return result.value;
  // The object does not know its own name, so the caller words "not found" with the id it asked for.
  if (result.error.code === "not_found" && result.error.message === NO_PLAN_HERE) throw notFound("plan", planId);
  throw fromRpcError(result.error);
}

/** Whether the org's plan index lists the plan: one read by primary key, on the database's primary (a plan just created is there). */
export async function orgHoldsPlan(home: D1Queries, orgId: string, planId: string): Promise<boolean> {
  return (await home.prepare("SELECT 1 AS held FROM plans WHERE plan_id = ? AND org_id = ?").bind(planId, orgId).first<{ held: number }>()) !== null;
}

/**
 * The plan engine over plans' Durable Objects, the one way a plan's object is reached by id. An id the org's plan
 * index does not list (none, another org's, a guess) is not_found before any object is touched: reaching an object
 * makes its storage, so a probe would otherwise leave an object named after the org that its erasure cannot find.
 * Only `create` reaches an object unlisted, and its index row is written before it answers.
 * `homeOf` gives the org's home database (the index); `onIndexWritten` hears the D1 bookmark of a plan index
 * write a command waited for, so a response (REST or MCP) can hand the caller a position that covers it.
 */
export function durablePlanEngine(env: Env, homeOf: (orgId: string) => D1Queries | Promise<D1Queries>, onIndexWritten?: (bookmark: string) => void): PlanEngine {
  const held = async (orgId: string, planId: string) => {
    if (!(await orgHoldsPlan(await homeOf(orgId), orgId, planId))) throw notFound("plan", planId);
    return stubFor(env.PLAN, orgId, planId);
  };
  return {
    async run(orgId, planId, command, actor, now) {
      const stub = command.kind === "create" ? stubFor(env.PLAN, orgId, planId) : await held(orgId, planId);
      const result = await stub.run(command, actor, now);
      if ("bookmark" in result && typeof result.bookmark === "string") onIndexWritten?.(result.bookmark);
      return unwrap(result, planId);
    },
    async read(orgId, planId, withResults) {
      return unwrap(await (await held(orgId, planId)).read({ withResults }), planId);
    },
    async history(orgId, planId, beforeAuditSeq, limit) {
      return unwrap(await (await held(orgId, planId)).history({ beforeAuditSeq, limit }), planId);
    },
  };
}

/** Plans not finished: what list_active_plans and the dashboard's "open" filter show. */
export const ACTIVE_STATUSES = ["active", "awaiting_review", "stalled"];

/** A row of the D1 plan index (`plans`). */
export interface PlanIndexRow {
  plan_id: string;
  org_id: string;
  name: string;
  research_question: string;
  status: string;
  derived_status: string;
  progress: number;
  stalled: number;
  total_steps: number;
  completed_steps: number;
  failed_steps: number;
  current_step_order: number | null;
  session_id: string | null;
  execution_id: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
  index_seq: number;
  budget_percent: number | null;
  budget_exhausted: number;
}

/** A run a schedule made that nobody has started yet (no step claimed, finished or failed): the list shows it `due`. */
const SERIES_RUN_DUE = `(completed_steps = 0 AND failed_steps = 0 AND current_step_order IS NULL AND EXISTS (
  SELECT 1 FROM plan_series_runs r WHERE r.org_id = plans.org_id AND r.plan_id = plans.plan_id AND r.status = 'due' AND r.plan_created = 1))`;

export function d1PlanIndex(db: D1Queries): PlanIndex {
  return {
    async listActive(orgId, page) {
      const after = page.after;
      const { results } = await db
        .prepare(
          `SELECT *, ${SERIES_RUN_DUE} AS series_run_due FROM plans WHERE org_id = ? AND status IN (${ACTIVE_STATUSES.map(() => "?").join(", ")})
             ${after ? "AND (updated_at < ? OR (updated_at = ? AND plan_id < ?))" : ""}
            ORDER BY updated_at DESC, plan_id DESC LIMIT ?`,
        )
        .bind(orgId, ...ACTIVE_STATUSES, ...(after ? [after.updatedAt, after.updatedAt, after.planId] : []), page.limit)
        .all<PlanIndexRow & { series_run_due: number }>();
      return results.map((row) => ({ ...toPlanIndexEntry(row), seriesRunDue: row.series_run_due === 1 }));
    },
  };
}

export const toPlanIndexEntry = (row: PlanIndexRow): PlanIndexEntry => ({
  planId: row.plan_id,
  orgId: row.org_id,
  name: row.name,
  researchQuestion: row.research_question,
  status: row.status,
  derivedStatus: row.derived_status,
  progress: row.progress,
  stalled: row.stalled === 1,
  totalSteps: row.total_steps,
  completedSteps: row.completed_steps,
  failedSteps: row.failed_steps,
  currentStepOrder: row.current_step_order,
  sessionId: row.session_id,
  executionId: row.execution_id,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  budgetPercent: row.budget_percent ?? null,
  budgetExhausted: row.budget_exhausted === 1,
  seq: row.index_seq,
});
