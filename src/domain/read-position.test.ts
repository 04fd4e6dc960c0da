import { describe, expect, it } from "vitest";
import { CairnError } from "./errors";
import { FROM_PRIMARY, formatReadPosition, isAheadOf, newerBookmark, parseReadPosition, positionAheadError, READ_POSITION_META_KEY, sessionStart } from "./read-position";

const OLD = "00000000-0000000f-00000000-00000000000000000000000000000000";
const NEW = "00000000-00000011-00000000-00000000000000000000000000000000";

describe("read positions", () => {
  it("reads back what it wrote, and nothing when the header is absent or blank", () => {
    expect(parseReadPosition(formatReadPosition({ database: "RESEARCH_DB_2", bookmark: OLD }))).toEqual({ database: "RESEARCH_DB_2", bookmark: OLD });
    expect(parseReadPosition(` DB:${NEW} `)).toEqual({ database: "DB", bookmark: NEW });
    expect(parseReadPosition(null)).toBeNull();
    expect(parseReadPosition("  ")).toBeNull();
  });

  it("refuses any value it would not have handed out, naming the header", () => {
    const bad = [
      OLD, // no database
      `:${OLD}`,
      `db:${OLD}`, // not a binding name
      "DB:garbage",
      "DB:first-unconstrained", // a constraint, not a position: callers do not choose stale reads
      `DB:${OLD.toUpperCase()}`,
      `DB:${OLD}0`,
      `DB:${"f".repeat(8)}-${"f".repeat(8)}-${"f".repeat(8)}-${"f".repeat(31)}`,
      `${"A".repeat(100)}:${OLD}`,
      `DB:${OLD} extra`,
    ];
    for (const value of bad) {
      let error: unknown;
      try {
        parseReadPosition(value);
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(CairnError);
      expect((error as CairnError).code).toBe("validation");
      expect((error as CairnError).message).toContain("Cairn-Bookmark");
    }
  });

  it("reads the same value from MCP's _meta, refusing anything but a string it handed out and naming the key", () => {
    expect(parseReadPosition(`DB:${NEW}`, READ_POSITION_META_KEY)).toEqual({ database: "DB", bookmark: NEW });
    expect(parseReadPosition(undefined, READ_POSITION_META_KEY)).toBeNull();
    for (const value of [42, { database: "DB", bookmark: NEW }, [`DB:${NEW}`], true, "DB:garbage"]) {
      let error: unknown;
      try {
        parseReadPosition(value, READ_POSITION_META_KEY);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(value)).toBeInstanceOf(CairnError);
      expect((error as CairnError).message).toContain(READ_POSITION_META_KEY);
      expect((error as CairnError).details.issues?.[0]?.path).toBe(READ_POSITION_META_KEY);
    }
  });

  it("starts on the primary unless the caller's position is of the org's database", () => {
    expect(sessionStart(null, "DB")).toBe(FROM_PRIMARY);
    expect(sessionStart({ database: "DB", bookmark: OLD }, "DB")).toBe(OLD);
    // The org now lives elsewhere (moved by export and import): a bookmark of the old database means nothing there.
    expect(sessionStart({ database: "DB", bookmark: NEW }, "RESEARCH_DB_2")).toBe(FROM_PRIMARY);
  });

  it("keeps the newer of two bookmarks and ignores what is not one", () => {
    expect(newerBookmark(OLD, NEW)).toBe(NEW);
    expect(newerBookmark(NEW, OLD)).toBe(NEW);
    expect(newerBookmark(null, OLD)).toBe(OLD);
    expect(newerBookmark(undefined, null)).toBeNull();
    // workerd keeps the text-wise greatest bookmark a session has seen, so a stray value must never win here.
    expect(newerBookmark("zzz", OLD)).toBe(OLD);
  });

  it("tells a bookmark past the database's known position, and refuses it naming where it came from", () => {
    expect(isAheadOf(NEW, OLD)).toBe(true);
    expect(isAheadOf(OLD, NEW)).toBe(false);
    expect(isAheadOf(NEW, NEW)).toBe(false);
    expect(isAheadOf(OLD, null)).toBe(true); // nothing known: it has to be checked
    const error = positionAheadError(`_meta["${READ_POSITION_META_KEY}"]`);
    expect(error.code).toBe("validation");
    expect(error.message).toContain(READ_POSITION_META_KEY);
    expect(error.details.issues?.[0]?.path).toBe(`_meta["${READ_POSITION_META_KEY}"]`);
  });
});
