/**
 * Plans' schedules from the operator CLI: the Worker's PUT and DELETE /api/v1/plans/{planId}/schedule, with the same
 * temporary admin key and the same Worker (--url, the deployment with --remote, or a local wrangler dev) as the
 * other commands that go through the Worker.
 */
import { normalizeSlug } from "./operators.mjs";
import { callWorker } from "./worker-call.mjs";
import { OperatorError, runSql, sqlString } from "./wrangler.mjs";

/** The org of a plan: --org when given, else the plan's row in the directory database (where most orgs live). */
async function orgOfPlan(planId, org, target) {
  if (org) return normalizeSlug(org);
  const [row] = await runSql(`SELECT o.slug FROM plans p JOIN orgs o ON o.id = p.org_id WHERE p.plan_id = ${sqlString(planId)}`, target);
  if (!row) throw new OperatorError(`No plan "${planId}" in the directory database: pass --org SLUG (an org kept in another database).`, { code: "not_found" });
  return row.slug;
}

async function call(planId, org, url, target, method, body, what) {
  const slug = await orgOfPlan(planId, org, target);
  return callWorker({ org: slug, url, ...target }, { what, method, path: `/plans/${encodeURIComponent(planId)}/schedule`, body });
}

/** @returns {Promise<{ schedule: Record<string, any> }>} */
export async function schedulePlan({ plan, org, every, start, until, url, ...target }) {
  const body = { every, ...(start ? { startAt: start } : {}), ...(until ? { until } : {}) };
  return call(plan, org, url, target, "PUT", body, "plans schedule");
}

export async function unschedulePlan({ plan, org, url, ...target }) {
  await call(plan, org, url, target, "DELETE", undefined, "plans unschedule");
}
