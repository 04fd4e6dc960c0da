/**
 * A read prepared but not yet sent: its statement and how to read its rows, so
 * several can go to D1 together in one batch (one round trip; see research-search.ts).
 */
export interface Query<T> {
  statement: D1PreparedStatement;
  read(rows: unknown[]): T;
}
