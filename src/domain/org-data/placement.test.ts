import { describe, expect, it } from "vitest";
import { chooseHome, DIRECTORY_TABLES, isBindingName, livesInHome, MAX_HOME_DATABASES, placementCandidates } from "./placement";
import { ROW_TABLES } from "./format";

describe("org placement", () => {
  it("reads the listed databases: unset is the directory's own; commas or spaces; duplicates once", () => {
    expect(placementCandidates(undefined)).toEqual(["DB"]);
    expect(placementCandidates("  ")).toEqual(["DB"]);
    expect(placementCandidates("DB, RESEARCH_DB_2 RESEARCH_DB_3,RESEARCH_DB_2")).toEqual(["DB", "RESEARCH_DB_2", "RESEARCH_DB_3"]);
    expect(placementCandidates("RESEARCH_DB_2")).toEqual(["RESEARCH_DB_2"]);
  });

  it("refuses a listing that cannot name bindings, saying which entry and what a good one looks like", () => {
    expect(() => placementCandidates("DB,research-2")).toThrow(/"research-2".*D1 binding name such as RESEARCH_DB_2/);
    expect(() => placementCandidates("DB,__proto__")).toThrow(/__proto__/);
    const many = Array.from({ length: MAX_HOME_DATABASES + 1 }, (_, i) => `DB_${i}`).join(",");
    expect(() => placementCandidates(many)).toThrow(/at most 64/);
    expect(isBindingName("constructor")).toBe(false);
    expect(isBindingName("RESEARCH_DB_2")).toBe(true);
  });

  it("puts a new org in the database holding the fewest orgs, ties to the first listed", () => {
    expect(chooseHome(["DB"], new Map([["DB", 900]]))).toBe("DB");
    expect(chooseHome(["DB", "R2"], new Map([["DB", 3]]))).toBe("R2");
    expect(chooseHome(["DB", "R2"], new Map([["DB", 3], ["R2", 3]]))).toBe("DB");
    expect(chooseHome(["R3", "DB", "R2"], new Map([["DB", 1], ["R2", 1], ["R3", 2]]))).toBe("DB");
    // A database taken off the list is not a candidate, however empty.
    expect(chooseHome(["DB"], new Map([["DB", 5], ["R2", 0]]))).toBe("DB");
    expect(() => chooseHome([], new Map())).toThrow();
  });

  it("keeps people, credentials, the tool-call log, webhooks and the session index in the directory; every other exported table in the home", () => {
    const home = ROW_TABLES.filter(livesInHome);
    expect(home).toEqual(["skill_executions", "plans", "artifacts", "artifact_versions", "research_outputs", "research_output_versions", "research_feedback", "comments", "evidence_ledgers", "ledger_evidence", "ledger_claims", "ledger_verdicts", "audit_log"]);
    expect([...DIRECTORY_TABLES]).toEqual(expect.arrayContaining(["orgs", "users", "memberships", "api_keys", "tool_call_log", "search_sessions", "webhook_subscriptions", "webhook_deliveries"]));
  });
});
