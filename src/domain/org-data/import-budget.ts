import { type CairnError, rateLimited } from "../errors";

/**
 * What one org may import per day (UTC): records (a row, a member, each row of a
 * plan's or session's storage) and bytes of file read. Counted as read, refused or
 * not, so a file that fails again and again spends the budget as one that succeeds.
 * Large enough for an org of many thousand plans' worth of research; an operator
 * moving a larger org raises it (ORG_IMPORT_DAILY_ROWS, ORG_IMPORT_DAILY_BYTES).
 */
export const IMPORT_DAILY_BUDGET = { rows: 200_000, bytes: 512 * 1024 * 1024 } as const;

export interface ImportBudget {
  rows: number;
  bytes: number;
}
export interface ImportUsage {
  rows: number;
  bytes: number;
}

const DAY_MS = 86_400_000;

/** The budget from the deployment's settings; a value that is not a positive whole number keeps the default. */
export function importBudget(vars: { ORG_IMPORT_DAILY_ROWS?: string; ORG_IMPORT_DAILY_BYTES?: string }): ImportBudget {
  const read = (raw: string | undefined, fallback: number) => (raw !== undefined && /^\s*[1-9]\d{0,15}\s*$/.test(raw) ? Number(raw) : fallback);
  return { rows: read(vars.ORG_IMPORT_DAILY_ROWS, IMPORT_DAILY_BUDGET.rows), bytes: read(vars.ORG_IMPORT_DAILY_BYTES, IMPORT_DAILY_BUDGET.bytes) };
}

/** The day a budget counts in: days since the epoch, UTC. */
export const importDay = (now: number): number => Math.floor(now / DAY_MS);

/** The refusal of an import whose day's usage (counted so far, this import included) passed the budget, or null. */
export function budgetRefusal(budget: ImportBudget, used: ImportUsage, now: number): CairnError | null {
  const over = used.rows > budget.rows ? `${budget.rows} rows` : used.bytes > budget.bytes ? `${budget.bytes} bytes` : null;
  if (!over) return null;
  const nextDay = (importDay(now) + 1) * DAY_MS;
  return rateLimited(
    `This organization has imported its daily budget of ${over} (counted per UTC day, failed imports included); nothing of this import was kept. Try again after ${new Date(nextDay).toISOString()}.`,
    (nextDay - now) / 1000,
  );
}
