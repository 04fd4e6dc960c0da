import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { newId } from "../ids";
import { storedMetadataIssue } from "../skill-executions";
import type { StoredRow, TableDump } from "./format";
import { budgetRefusal, IMPORT_DAILY_BUDGET, importBudget, importDay } from "./import-budget";
import { checkImportRow, rowKeys } from "./import-policy";
import { checkPlanState, checkSessionState } from "./object-state-policy";

const T = 1_790_000_000_000;
const artifact = (extra: StoredRow = {}): StoredRow => ({
  id: newId("art"),
  org_id: "org_x",
  artifact_type: "finding",
  title: "A finding",
  content: '{"a":1}',
  content_text: "a finding",
  confidence: 0.5,
  plan_id: null,
  step_id: null,
  tags: '["x","y"]',
  tag_index: " x y ",
  source_url: "https://example.org/a",
  version: 1,
  created_by: "usr_1",
  created_at: T,
  updated_at: T,
  ...extra,
});

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CairnError);
    return (error as CairnError).message;
  }
  throw new Error("not refused");
};

describe("import policy: rows", () => {
  it("passes a row as the operation stores it", () => {
    const row = artifact();
    expect(checkImportRow("artifacts", row, 7, 3)).toBe(row);
  });

  it("refuses server-managed columns and row keys, naming them and the line", () => {
    expect(refusal(() => checkImportRow("artifacts", artifact({ seq: 5 }), 7, 3))).toBe(
      "Line 7: artifacts: column seq is assigned by the server; an import never sets it. Leave it out of the row.",
    );
    expect(refusal(() => checkImportRow("plans", { index_seq: 1 }, 3, 3))).toContain("column index_seq is assigned by the server");
    expect(refusal(() => checkImportRow("ledger_claims", { seq: "9223372036854775807" }, 3, 3))).toContain("column seq");
    // A file cannot mark its sources verified: the verdict is Cairn's own, from fetching the page.
    expect(refusal(() => checkImportRow("ledger_evidence", { verification_requested_at: 1 }, 4, 3))).toContain("column verification_requested_at is assigned by the server");
    // Exports before version 3 never carried a verdict: one in such a file is refused.
    expect(refusal(() => checkImportRow("ledger_evidence", { verification_status: "verified" }, 4, 2))).toContain("column verification_status is not part of a version 2 export");
    expect(refusal(() => checkImportRow("artifacts", artifact({ rowid: 1 }), 2, 3))).toContain("column rowid is assigned by the server");
    expect(refusal(() => checkImportRow("artifacts", artifact({ extra: 1 }), 2, 3))).toBe("Line 2: artifacts has no column extra.");
  });

  it("holds each column to its operation's bounds, enums and JSON", () => {
    const cases: [StoredRow, string][] = [
      [{ artifact_type: "virus" }, "column artifact_type: must be one of finding"],
      [{ title: "" }, "column title: must not be empty"],
      [{ title: "t".repeat(301) }, "column title: must have at most 300 characters"],
      [{ confidence: 2 }, "column confidence: must be between 0 and 1"],
      [{ version: 0 }, "column version: must be between 1"],
      [{ version: 1.5 }, "column version: must be a whole number"],
      [{ created_at: "yesterday" }, "column created_at: must be a number"],
      [{ id: "art_1" }, "column id: must be an id of the form art_"],
      [{ id: newId("plan") }, "column id: must be an id of the form art_"],
      [{ source_url: "javascript:alert(1)" }, "column source_url: must be an http(s) URL"],
      [{ content: "{" }, "column content: is not JSON"],
      [{ content: JSON.stringify({ a: { __proto__x: 1, ["__proto__"]: 1 } }).replace("__proto__x", "b") }, 'The key "__proto__" is not allowed'],
      [{ tags: '["x",1]', tag_index: " x 1 " }, "column tags: item 1 must be text"],
      [{ tags: '["x"]', tag_index: " y " }, "column tag_index: must be the tags"],
    ];
    for (const [change, message] of cases) expect(refusal(() => checkImportRow("artifacts", artifact(change), 4, 3)), message).toContain(message);
    const deep = JSON.stringify(Array.from({ length: 40 }).reduce<unknown>((inner) => [inner], "x"));
    expect(refusal(() => checkImportRow("artifacts", artifact({ content: deep }), 4, 3))).toContain("Nested too deeply");
  });

  it("takes a caller's own content hash as record_evidence does, and refuses one it would not", () => {
    const evidence = (contentHash: string): StoredRow => ({
      org_id: "org_x",
      plan_id: newId("plan"),
      n: 1,
      url: "https://example.org/a",
      title: "A",
      facts: "F",
      quote: null,
      fetched_at: null,
      content_hash: contentHash,
      subtopic: null,
      query: null,
      recorded_by: "usr_1",
      created_at: T,
    });
    expect(() => checkImportRow("ledger_evidence", evidence("sha256:0123abcd"), 5, 3)).not.toThrow();
    expect(refusal(() => checkImportRow("ledger_evidence", evidence("x y"), 5, 3))).toContain("column content_hash");
  });

  it("checks skill-execution metadata as log_skill_execution does", () => {
    expect(storedMetadataIssue({ topic: "t", delegatedTo: "deep", researchType: "decision_support", priorResearchCheck: { decision: "unique" } })).toBeNull();
    expect(storedMetadataIssue({ delegatedTo: "elsewhere" })).toMatchObject({ path: "metadata.delegatedTo" });
    expect(storedMetadataIssue({ clarifyingQuestions: [1, 2, 3] })).toMatchObject({ path: "metadata.clarifyingQuestions" });
    expect(storedMetadataIssue({ originalQuery: "q".repeat(5001) })).toMatchObject({ path: "metadata.originalQuery" });
    expect(storedMetadataIssue({ priorResearchCheck: { decision: "maybe" } })).toMatchObject({ path: "metadata.priorResearchCheck.decision" });
    expect(storedMetadataIssue([])).toMatchObject({ path: "metadata" });
  });

  it("names the keys a row claims, so a file's duplicates are found", () => {
    const row = artifact();
    expect(rowKeys("artifacts", row)).toEqual([`artifacts(id)=${JSON.stringify([row.id])}`]);
    expect(rowKeys("ledger_evidence", { plan_id: "p", n: 1, url: "u", content_hash: "h" })).toHaveLength(2);
  });
});

describe("import policy: a plan's and a session's storage", () => {
  const orgId = newId("org");
  const planId = newId("plan");
  const stepId = newId("step");
  const planState = (): TableDump => ({
    plan: [{ plan_id: planId, data: JSON.stringify({ planId, orgId, name: "P", status: "active", branchingConditions: [], version: 1 }) }],
    steps: [{ step_id: stepId, step_order: 1, data: JSON.stringify({ stepId, stepOrder: 1, stepType: "search", status: "pending", instructions: "Do" }), result: null, execution_report: null }],
    versions: [],
    audit: [{ action: "plan.created", step_id: null, detail: "{}", actor_user_id: "usr_1", actor_client_id: null, created_at: T }],
  });

  it("passes a plan as the engine keeps it and refuses what it would never hold", () => {
    expect(() => checkPlanState(planId, planState(), 9, orgId)).not.toThrow();
    const change = (edit: (tables: TableDump) => void) => {
      const tables = planState();
      edit(tables);
      return refusal(() => checkPlanState(planId, tables, 9, orgId));
    };
    expect(change((t) => ((t.audit as StoredRow[])[0] = { ...(t.audit?.[0] as StoredRow), seq: 1 }))).toContain("audit[0]: column seq is assigned by the server");
    expect(change((t) => (t.outbox = []))).toBe("Line 9: plan_state: no table outbox is kept here.");
    expect(change((t) => (t.plan = []))).toContain("table plan must hold 1 to 1 rows");
    expect(change((t) => (t.steps = Array.from({ length: 61 }, () => t.steps?.[0] as StoredRow)))).toContain("table steps must hold at most 60 rows");
    expect(change((t) => (t.steps = [t.steps?.[0] as StoredRow, t.steps?.[0] as StoredRow]))).toContain("appears twice");
    expect(change((t) => ((t.steps?.[0] as StoredRow).data = JSON.stringify({ stepId, stepOrder: 1, stepType: "search", status: "haunted", instructions: "Do" })))).toContain("status must be one of");
    expect(change((t) => ((t.steps?.[0] as StoredRow).result = "x".repeat(300 * 1024)))).toContain("column result: must be at most");
    expect(change((t) => ((t.plan?.[0] as StoredRow).plan_id = newId("plan")))).toContain("column plan_id");
    // The object indexes itself and sends its events to the org its state names: never another one.
    expect(refusal(() => checkPlanState(planId, planState(), 9, newId("org")))).toBe("Line 9: plan_state, column data: orgId must be the organization the file's header names.");
  });

  it("bounds a session's steps by the deployment's limit, and holds it to the header's org", () => {
    const sessionId = newId("srch");
    const header = { id: 1, data: JSON.stringify({ sessionId, orgId, researchGoal: null, startedAt: T, lastActivityAt: T, expiresAt: T }) };
    const step = (n: number) => ({ step_number: n, data: JSON.stringify({ stepNumber: n, searchStep: "s", sources: [] }) });
    expect(() => checkSessionState(sessionId, { header: [header], steps: [step(1), step(2)] }, 3, orgId, 2)).not.toThrow();
    expect(refusal(() => checkSessionState(sessionId, { header: [header], steps: [step(1), step(2), step(3)] }, 3, orgId, 2))).toContain("table steps must hold at most 2 rows");
    expect(refusal(() => checkSessionState(sessionId, { header: [{ ...header, id: 2 }] }, 3, orgId, 2))).toContain("column id");
    expect(refusal(() => checkSessionState(newId("srch"), { header: [header] }, 3, orgId, 2))).toContain("sessionId must be the session");
    expect(refusal(() => checkSessionState(sessionId, { header: [header] }, 3, newId("org"), 2))).toContain("orgId must be the organization");
    const forever = { id: 1, data: JSON.stringify({ sessionId, orgId, researchGoal: null, startedAt: T, lastActivityAt: T, expiresAt: T + 8 * 24 * 3_600_000 }) };
    expect(refusal(() => checkSessionState(sessionId, { header: [forever] }, 3, orgId, 2))).toContain("expiresAt must be at most");
  });
});

describe("import budget", () => {
  it("reads the deployment's budget, keeping the default for anything but a positive whole number", () => {
    expect(importBudget({})).toEqual(IMPORT_DAILY_BUDGET);
    expect(importBudget({ ORG_IMPORT_DAILY_ROWS: "10", ORG_IMPORT_DAILY_BYTES: "0" })).toEqual({ rows: 10, bytes: IMPORT_DAILY_BUDGET.bytes });
    expect(importBudget({ ORG_IMPORT_DAILY_ROWS: "-1", ORG_IMPORT_DAILY_BYTES: "1e9" })).toEqual(IMPORT_DAILY_BUDGET);
  });

  it("refuses past the budget until the next UTC day", () => {
    const budget = { rows: 10, bytes: 1000 };
    const noon = Date.UTC(2026, 10, 25, 12);
    expect(budgetRefusal(budget, { rows: 10, bytes: 1000 }, noon)).toBeNull();
    const rows = budgetRefusal(budget, { rows: 11, bytes: 0 }, noon);
    expect(rows?.code).toBe("rate_limited");
    expect(rows?.message).toContain("10 rows");
    expect(rows?.details.retryAfterSeconds).toBe(12 * 3600);
    expect(budgetRefusal(budget, { rows: 0, bytes: 1001 }, noon)?.message).toContain("1000 bytes");
    expect(importDay(noon)).toBe(importDay(Date.UTC(2026, 10, 25, 23, 59)));
    expect(importDay(noon) + 1).toBe(importDay(Date.UTC(2026, 10, 26)));
  });
});

describe("imported comments", () => {
  const comment = (extra: StoredRow = {}): StoredRow => ({
    id: newId("cmt"),
    org_id: "org_x",
    output_id: newId("out"),
    plan_id: null,
    step_id: null,
    reply_to: null,
    body: "Is this the cell or the pack?",
    anchor_heading: "Costs",
    anchor_quote: null,
    author_user_id: "usr_1",
    created_at: T,
    resolved_at: null,
    resolved_by: null,
    answered_by_output_id: null,
    answered_by_version: null,
    ...extra,
  });

  it("takes a comment a person could have posted, and refuses one the routes would refuse, naming the column", () => {
    expect(checkImportRow("comments", comment(), 3, 3)).toBeTruthy();
    expect(checkImportRow("comments", comment({ output_id: null, plan_id: newId("plan"), step_id: newId("step") }), 3, 3)).toBeTruthy();
    expect(refusal(() => checkImportRow("comments", comment({ body: `${"> ".repeat(100)}deep` }), 4, 3))).toContain("column body");
    expect(refusal(() => checkImportRow("comments", comment({ body: "x".repeat(9_000) }), 4, 3))).toContain("column body");
    expect(refusal(() => checkImportRow("comments", comment({ output_id: null }), 4, 3))).toContain("about a deliverable");
    expect(refusal(() => checkImportRow("comments", comment({ reply_to: "not-an-id" }), 4, 3))).toContain("column reply_to");
  });
});
