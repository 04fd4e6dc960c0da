import { validationError } from "./errors";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Position after the last item of a page, ordered by (createdAt desc, id desc). */
export interface PageCursor {
  createdAt: number;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function encodeCursor(cursor: PageCursor): string {
  return btoa(JSON.stringify([cursor.createdAt, cursor.id])).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function decodeCursor(cursor: string): PageCursor {
  try {
    const padded = cursor.replace(/-/g, "+").replace(/_/g, "/");
    const value: unknown = JSON.parse(atob(padded));
    if (Array.isArray(value) && typeof value[0] === "number" && typeof value[1] === "string") {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the validation error
  }
  throw validationError("cursor is not a cursor this server issued; pass nextCursor from the previous page unchanged.", [
    { path: "cursor", message: "Unrecognised cursor" },
  ]);
}

/** Turns `limit + 1` fetched rows into a page: the extra row only proves there is a next page. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => PageCursor): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(cursorOf(last)) : null };
}
