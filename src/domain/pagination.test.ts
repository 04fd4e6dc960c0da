import { describe, expect, it } from "vitest";
import { CairnError } from "./errors";
import { decodeCursor, encodeCursor, toPage } from "./pagination";

describe("cursors", () => {
  it("round-trip and are URL-safe", () => {
    const cursor = { createdAt: 1_763_000_000_123, id: "exec_abc" };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it.each(["", "!!!", btoa("{}"), btoa('["x",1]'), btoa("[1]")])("refuses %j as a validation error", (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(CairnError);
  });
});

describe("toPage", () => {
  const rows = [5, 4, 3, 2, 1].map((n) => ({ createdAt: n, id: `r${n}` }));
  const cursorOf = (row: { createdAt: number; id: string }) => row;

  it("uses the extra row only to say there is a next page", () => {
    const page = toPage(rows.slice(0, 4), 3, cursorOf);
    expect(page.items.map((r) => r.id)).toEqual(["r5", "r4", "r3"]);
    expect(decodeCursor(page.nextCursor ?? "")).toEqual({ createdAt: 3, id: "r3" });
  });

  it("has no next page when the rows fit", () => {
    expect(toPage(rows.slice(0, 3), 3, cursorOf).nextCursor).toBeNull();
  });
});
