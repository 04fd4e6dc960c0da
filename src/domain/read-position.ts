import { validationError } from "./errors";
import { isBindingName } from "./org-data/placement";

/**
 * Where a caller's reads may start: a D1 bookmark of the database its
 * org lives in. D1 serves a session's reads from any replica at least as new
 * as its bookmark, so a caller that sends back the last position it was given
 * reads its own writes (sequential consistency) while replicas near it answer.
 * The position names its database: an org moved to another database starts
 * over on the new one's primary instead of waiting on a foreign bookmark.
 */
export interface ReadPosition {
  /** The binding name of the org's home database. */
  database: string;
  /** A D1 bookmark of that database. */
  bookmark: string;
}

/** The REST request and response header carrying a position: `<database>:<bookmark>`. */
export const READ_POSITION_HEADER = "Cairn-Bookmark";

/**
 * The same position in MCP: a `tools/call` request's `_meta` key, and its result's. MCP has no
 * sessions, so a client that wants replicas carries the value itself, exactly as a REST caller does.
 */
export const READ_POSITION_META_KEY = "cairn/bookmark";

/** Where a session starts when the caller sends no position (or one of another database): the primary, never stale. */
export const FROM_PRIMARY = "first-primary";

// D1's bookmarks are fixed-width hex (`00000000-0000000f-00000000-<32 hex>`), so text order is log order.
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const MAX_HEADER = 128;

export const isD1Bookmark = (value: string): boolean => D1_BOOKMARK.test(value);

/**
 * The position a request asks for (its header, or its `_meta` value: `carrier` names which), or null
 * when it has none. A value this API did not hand out is refused with what to send instead: a made-up
 * bookmark would make D1 wait for a point the database has not reached, or read older data than the caller saw.
 */
export function parseReadPosition(carried: unknown, carrier: string = READ_POSITION_HEADER): ReadPosition | null {
  if (carried === null || carried === undefined || (typeof carried === "string" && carried.trim() === "")) return null;
  const value = typeof carried === "string" ? carried.trim() : "";
  const colon = value.indexOf(":");
  const database = value.slice(0, colon);
  const bookmark = value.slice(colon + 1);
  if (value.length > MAX_HEADER || colon < 1 || !isBindingName(database) || !isD1Bookmark(bookmark)) {
    throw validationError(`${carrier} must be a value an earlier response of this API carried in it, sent back unchanged (or left out).`, [
      { path: carrier, message: "Not a position this API hands out" },
    ]);
  }
  return { database, bookmark };
}

/**
 * Whether `bookmark` is past `reached`, the newest position known for its database (null: none known).
 * Text order is log order for D1's fixed-width bookmarks.
 */
export const isAheadOf = (bookmark: string, reached: string | null): boolean => reached === null || bookmark > reached;

/**
 * A well-formed position the database has not reached: made up, or kept from before a restore. D1 would
 * take it and hand it back on every later call (its sessions keep the greatest bookmark they saw), so it
 * is refused like any other value this API did not hand out.
 */
export const positionAheadError = (carrier: string) =>
  validationError(`${carrier} is newer than anything the database has recorded: send back a value an earlier response carried, unchanged (or leave it out).`, [
    { path: carrier, message: "Newer than the database's own position" },
  ]);

export const formatReadPosition = (position: ReadPosition): string => `${position.database}:${position.bookmark}`;

/** The session constraint for a request on `home`: the caller's bookmark when it is of that database, else the primary. */
export const sessionStart = (position: ReadPosition | null, home: string): string => (position?.database === home ? position.bookmark : FROM_PRIMARY);

/** The newer of two bookmarks of one database; anything not shaped like a D1 bookmark is ignored. */
export function newerBookmark(a: string | null | undefined, b: string | null | undefined): string | null {
  const known = [a, b].filter((value): value is string => typeof value === "string" && isD1Bookmark(value));
  // Strings: text order, which for D1's fixed-width hex is log order.
  return known.sort().at(-1) ?? null;
}
