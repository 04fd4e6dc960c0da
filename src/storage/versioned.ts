import type { D1Queries } from "./database";
/**
 * Runs the batch that stores a new version (version row first, then the guarded update of the
 * current row). When another writer stored that version first, the version row's primary key
 * refuses ours and the whole batch rolls back: that is a lost race, answered as "no changes"
 * so the caller reports a conflict, not a failure.
 */
export async function batchUnlessRaceLost(db: D1Queries, statements: D1PreparedStatement[]): Promise<(D1Result | undefined)[]> {
  try {
    return await db.batch(statements);
  } catch (error) {
    if (/UNIQUE constraint failed|PRIMARY KEY/i.test(String(error))) return statements.map(() => undefined);
    throw error;
  }
}
