import { budgetRefusal, type ImportBudget, importDay } from "../../domain/org-data/import-budget";

/**
 * Counts what an import reads against the org's daily budget, durably: each
 * `settle` adds what was read since the last one to the org's row for the day
 * (org_import_usage, in the directory) and refuses, with when to retry, once the
 * day's total passes the budget. The importer settles before each write, so
 * nothing past the budget is written, and once more however the import ends.
 */
export class ImportMeter {
  #rows = 0;
  #bytes = 0;

  constructor(
    private readonly directory: D1Database,
    private readonly orgId: string,
    private readonly budget: ImportBudget,
    private readonly clock: () => number = Date.now,
  ) {}

  read(rows: number, bytes: number): void {
    this.#rows += rows;
    this.#bytes += bytes;
  }

  /** Records what was read since the last call; throws rate_limited when the day's total passes the budget. */
  async settle(): Promise<void> {
    const now = this.clock();
    const [rows, bytes] = [this.#rows, this.#bytes];
    this.#rows = 0;
    this.#bytes = 0;
    const day = importDay(now);
    const [, used] = await this.directory.batch<{ rows_read: number; bytes_read: number }>([
      // Earlier days of this org count no more.
      this.directory.prepare("DELETE FROM org_import_usage WHERE org_id = ? AND day < ?").bind(this.orgId, day),
      // Only while the org exists: an import taken for dead, and its org erased meanwhile, leaves no count behind when it reads on.
      this.directory
        .prepare(
          "INSERT INTO org_import_usage (org_id, day, rows_read, bytes_read) SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM orgs WHERE id = ?1) ON CONFLICT (org_id, day) DO UPDATE SET rows_read = rows_read + ?3, bytes_read = bytes_read + ?4 RETURNING rows_read, bytes_read",
        )
        .bind(this.orgId, day, rows, bytes),
    ]);
    const total = used?.results[0];
    const refusal = budgetRefusal(this.budget, { rows: total?.rows_read ?? rows, bytes: total?.bytes_read ?? bytes }, now);
    if (refusal) throw refusal;
  }
}
