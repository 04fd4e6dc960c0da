import { FROM_PRIMARY, isAheadOf, newerBookmark, positionAheadError, type ReadPosition, sessionStart } from "../domain/read-position";

/**
 * The newest position this isolate has seen each database really reach (binding name → D1 bookmark),
 * learned from the primary and from sessions that started at a checked position. One entry per home
 * database binding, so it stays as small as the deployment's list of databases. It holds nothing of
 * any caller: a position says how far a database got, not who asked.
 */
const reached = new Map<string, string>();

/** Records a position `database` has really reached. */
export function learnPosition(database: string, bookmark: string | null): void {
  const newest = newerBookmark(reached.get(database), bookmark);
  if (newest) reached.set(database, newest);
}

/**
 * A D1 session of `home` (the database named `database`) starting at the caller's position, or on the
 * primary. D1 takes any well-formed bookmark and keeps the greatest it has seen, so a made-up one from
 * the future would come back in every later response and stick to the caller (and a replica would wait
 * for a point no database reaches). A position newer than any this isolate has seen the database reach
 * is therefore checked once against the primary (one extra round trip, only then); one the primary has
 * not reached either is refused with a validation error naming `carrier`.
 */
export async function sessionFrom(home: D1Database, database: string, from: ReadPosition | null, carrier: string): Promise<D1DatabaseSession> {
  const start = sessionStart(from, database);
  if (start !== FROM_PRIMARY && isAheadOf(start, reached.get(database) ?? null)) {
    const primary = home.withSession(FROM_PRIMARY);
    await primary.prepare("SELECT 1").first();
    const current = primary.getBookmark();
    // No bookmark from the primary (never seen): the check cannot be made, so the primary answers.
    if (current === null) return primary;
    learnPosition(database, current);
    if (isAheadOf(start, current)) throw positionAheadError(carrier);
  }
  return home.withSession(start);
}
