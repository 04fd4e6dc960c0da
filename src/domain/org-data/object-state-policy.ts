import { validationError } from "../errors";
import { LIMITS, PLAN_STATUSES, STEP_STATUSES, STEP_TYPES } from "../plans/model";
import { MAX_SESSION_TTL_MINUTES } from "../sessions/config";
import { SESSION_LIMITS } from "../sessions/model";
import type { StoredRow, TableDump } from "./format";
import { actor, type CellRule, cellIssue, client, id, int, isRecord, json, MAX_VERSION, objectValue, text, time } from "./import-rules";

/**
 * What an import may write into a plan's or a search session's own storage: the
 * tables and columns the object keeps, bounded as the engine bounds them (a plan's
 * step count, sizes of results and reports; a session's step count and texts).
 * The plan audit's sequence is the object's own and never taken from a file.
 * Pure; the importer checks each plan_state and session_state line with it.
 */

interface TablePolicy {
  columns: Readonly<Record<string, CellRule>>;
  /** Columns the object assigns itself: refused in a file. */
  managed?: readonly string[];
  maxRows: number;
  minRows?: number;
  /** Columns whose values no two rows share. */
  unique?: readonly string[];
}

/** Modifications of one plan (each a version): ample for any real plan, a bound for a file. */
export const MAX_PLAN_VERSIONS = 10_000;
/** Audit entries of one plan: a few per step transition. */
export const MAX_PLAN_AUDIT_ROWS = 50_000;

const planData = (value: unknown) => {
  if (!isRecord(value)) return "must be a JSON object";
  if (typeof value.name !== "string" || value.name.length > 200) return "name must be text of at most 200 characters";
  if (!PLAN_STATUSES.includes(value.status as never)) return `status must be one of ${PLAN_STATUSES.join(", ")}`;
  if (!Array.isArray(value.branchingConditions) || value.branchingConditions.length > LIMITS.branchingConditions) {
    return `branchingConditions must be a list of at most ${LIMITS.branchingConditions}`;
  }
  if (!(Number.isSafeInteger(value.version) && (value.version as number) >= 1 && (value.version as number) <= MAX_VERSION)) return "version must be a whole number from 1";
  return null;
};

const stepData = (value: unknown) => {
  if (!isRecord(value)) return "must be a JSON object";
  if (!STEP_TYPES.includes(value.stepType as never)) return `stepType must be one of ${STEP_TYPES.join(", ")}`;
  if (!STEP_STATUSES.includes(value.status as never)) return `status must be one of ${STEP_STATUSES.join(", ")}`;
  if (typeof value.instructions !== "string" || value.instructions.length > LIMITS.instructionsChars) return `instructions must be text of at most ${LIMITS.instructionsChars} characters`;
  return null;
};

const PLAN_TABLES: Readonly<Record<string, TablePolicy>> = {
  // Sizes as the engine can fill them: branching conditions carry whole steps, reviews long presentations.
  plan: { columns: { plan_id: id("plan"), data: json(8 * 1024 * 1024, planData) }, maxRows: 1, minRows: 1 },
  steps: {
    columns: {
      step_id: id("step"),
      step_order: int(1, LIMITS.stepsPerPlan),
      data: json(1024 * 1024, stepData),
      result: json(LIMITS.resultBytes, () => null, true),
      execution_report: json(LIMITS.reportBytes, objectValue, true),
    },
    maxRows: LIMITS.stepsPerPlan,
    unique: ["step_id", "step_order"],
  },
  versions: {
    columns: {
      version: int(1, MAX_VERSION),
      kind: text(40, { min: 1 }),
      rationale: text(8000),
      before: json(4 * 1024 * 1024),
      after: json(4 * 1024 * 1024),
      actor_user_id: actor(),
      actor_client_id: client,
      created_at: time(),
    },
    maxRows: MAX_PLAN_VERSIONS,
    unique: ["version"],
  },
  audit: {
    columns: {
      action: text(100, { min: 1, pattern: /^[a-z][a-z0-9_.]*$/, shape: "an action name" }),
      step_id: id("step", true),
      detail: json(256 * 1024, objectValue),
      actor_user_id: actor(),
      actor_client_id: client,
      created_at: time(),
    },
    managed: ["seq"],
    maxRows: MAX_PLAN_AUDIT_ROWS,
  },
};

const sessionHeader = (value: unknown) => {
  if (!isRecord(value)) return "must be a JSON object";
  const texts: [string, number][] = [
    ["researchGoal", SESSION_LIMITS.goalChars],
    ["sessionSummary", SESSION_LIMITS.summaryChars],
  ];
  for (const [key, max] of texts) {
    const field = value[key];
    if (field !== null && field !== undefined && (typeof field !== "string" || field.length > max)) return `${key} must be text of at most ${max} characters`;
  }
  for (const key of ["startedAt", "lastActivityAt", "expiresAt"]) if (cellIssue(time(), value[key])) return `${key} must be a time in milliseconds`;
  // A session expires after its idle limit; one set to outlive any deployment's would hold a slot of the org for ever.
  if ((value.expiresAt as number) - (value.lastActivityAt as number) > MAX_SESSION_TTL_MINUTES * 60_000) return `expiresAt must be at most ${MAX_SESSION_TTL_MINUTES} minutes after lastActivityAt`;
  return null;
};

const sessionStep = (value: unknown) => {
  if (!isRecord(value)) return "must be a JSON object";
  if (typeof value.searchStep !== "string" || value.searchStep.length > SESSION_LIMITS.searchStepChars) return `searchStep must be text of at most ${SESSION_LIMITS.searchStepChars} characters`;
  if (!Array.isArray(value.sources) || value.sources.length > SESSION_LIMITS.sourcesPerStep) return `sources must be a list of at most ${SESSION_LIMITS.sourcesPerStep}`;
  return null;
};

const sessionTables = (maxSteps: number): Readonly<Record<string, TablePolicy>> => ({
  header: { columns: { id: int(1, 1), data: json(256 * 1024, sessionHeader) }, maxRows: 1, minRows: 1 },
  steps: { columns: { step_number: int(1, maxSteps), data: json(512 * 1024, sessionStep) }, maxRows: maxSteps, unique: ["step_number"] },
});

function checkTables(policies: Readonly<Record<string, TablePolicy>>, tables: TableDump, where: string): void {
  for (const name of Object.keys(tables)) if (!Object.hasOwn(policies, name)) throw validationError(`${where}: no table ${name} is kept here.`);
  for (const [name, policy] of Object.entries(policies)) {
    const rows = tables[name] ?? [];
    if (rows.length < (policy.minRows ?? 0) || rows.length > policy.maxRows) {
      throw validationError(`${where}: table ${name} must hold ${policy.minRows ? `${policy.minRows} to ` : "at most "}${policy.maxRows} rows (has ${rows.length}).`, [
        { path: name, message: `At most ${policy.maxRows} rows` },
      ]);
    }
    const seen = new Map<string, Set<unknown>>((policy.unique ?? []).map((column) => [column, new Set()]));
    rows.forEach((row: StoredRow, index) => {
      const at = `${where}: ${name}[${index}]`;
      for (const column of Object.keys(row)) {
        if (policy.managed?.includes(column)) throw validationError(`${at}: column ${column} is assigned by the server; an import never sets it. Leave it out of the row.`);
        if (!Object.hasOwn(policy.columns, column)) throw validationError(`${at} has no column ${column}.`);
      }
      for (const [column, rule] of Object.entries(policy.columns)) {
        const issue = cellIssue(rule, row[column]);
        if (issue) throw validationError(`${at}, column ${column}: ${issue}.`, [{ path: `${name}.${index}.${column}`, message: issue }]);
      }
      for (const [column, values] of seen) {
        if (values.has(row[column])) throw validationError(`${at}, column ${column}: ${String(row[column])} appears twice.`);
        values.add(row[column]);
      }
    });
  }
}

/**
 * The org a plan's or session's state must name: the one the file's header names (which becomes the
 * importing org). The object indexes itself and sends its webhook events to the org its state names,
 * so a state naming another org would plant plans and events there.
 */
function checkOrg(data: { orgId?: unknown }, orgId: string, where: string): void {
  if (data.orgId !== orgId) throw validationError(`${where}, column data: orgId must be the organization the file's header names.`);
}

/** A plan's storage as the import may write it, or a validation error naming `line` and what is wrong. `orgId`: the header's org. */
export function checkPlanState(planId: string, tables: TableDump, line: number, orgId: string): void {
  const where = `Line ${line}: plan_state`;
  checkTables(PLAN_TABLES, tables, where);
  const plan = tables.plan?.[0] as StoredRow;
  if (plan.plan_id !== planId) throw validationError(`${where}, column plan_id: the plan row must be the plan ${planId} the line names.`);
  const data = JSON.parse(String(plan.data)) as { planId?: unknown; orgId?: unknown };
  if (data.planId !== planId) throw validationError(`${where}, column data: planId must be the plan ${planId} the line names.`);
  checkOrg(data, orgId, where);
  for (const [index, step] of (tables.steps ?? []).entries()) {
    const data = JSON.parse(String(step.data)) as { stepId?: unknown; stepOrder?: unknown };
    if (data.stepId !== step.step_id || data.stepOrder !== step.step_order) {
      throw validationError(`${where}: steps[${index}], column data: stepId and stepOrder must be the row's step_id and step_order.`);
    }
  }
}

/** A search session's storage as the import may write it (at most `maxSteps` steps, the deployment's limit); `orgId`: the header's org. */
export function checkSessionState(sessionId: string, tables: TableDump, line: number, orgId: string, maxSteps: number): void {
  const where = `Line ${line}: session_state`;
  checkTables(sessionTables(maxSteps), tables, where);
  const header = JSON.parse(String(tables.header?.[0]?.data)) as { sessionId?: unknown; orgId?: unknown };
  if (header.sessionId !== sessionId) throw validationError(`${where}, column data: sessionId must be the session ${sessionId} the line names.`);
  checkOrg(header, orgId, where);
  for (const [index, step] of (tables.steps ?? []).entries()) {
    if ((JSON.parse(String(step.data)) as { stepNumber?: unknown }).stepNumber !== step.step_number) {
      throw validationError(`${where}: steps[${index}], column data: stepNumber must be the row's step_number.`);
    }
  }
}
