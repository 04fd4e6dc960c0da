import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { hashEvidence } from "../research/ledger";
import { judgeClientText, judgeSource, unreachable } from "../sources/verification";
import { checkClientTextHash, CLIENT_TEXT_CHARS, parseClientTextRecord } from "./client-text-records";
import { importedVerdict, VERDICT_COLUMNS } from "./imported-verdicts";
import { checkSnapshotHash, parseSnapshotRecord, SNAPSHOT_TEXT_CHARS } from "./snapshot-records";

const PAGE = "In March, the team reported that solid-state cells reached 500 Wh/kg in the lab, a record for the chemistry.";
const SHA = "a".repeat(64);
const snapshot = { sha256: SHA, title: "Solid-state batteries reach 500 Wh/kg", text: PAGE, fetchedAt: 1_790_000_000_000 };
const source = (quote: string | null, verdict: Record<string, unknown>) => ({ title: "Solid-state batteries reach 500 Wh/kg", quote, ...verdict }) as never;
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof CairnError) return error.message;
    throw error;
  }
  throw new Error("not refused");
};

describe("a verdict arriving in an import file", () => {
  it("is judged again on the snapshot it names: what is stored is the judge's finding", () => {
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    const own = judgeSource({ quote, title: snapshot.title }, { text: PAGE, title: snapshot.title, snapshot: SHA }, 5);
    expect(own.status).toBe("verified");
    // The file's score, passage and reason are not taken: the judge's are.
    const columns = importedVerdict(source(quote, { verification_status: "verified", verification_snapshot: SHA, verification_score: 0.2, verification_passage: "made up", verification_checked_at: 5 }), snapshot, 3);
    expect(columns).toMatchObject({ verification_status: "verified", verification_score: 1, verification_passage: own.passage, verification_snapshot: SHA, verification_checked_at: 5, verification_basis: "fetched" });
    // A file claiming less than the judge finds gets the judge's verdict.
    expect(importedVerdict(source(quote, { verification_status: "not_found", verification_snapshot: SHA }), snapshot, 3).verification_status).toBe("verified");
  });

  it("lists the brackets as the judge finds them, never as the file says; old files without them still import", () => {
    // (A bracket may respell the page's words, not put other words in their place: "[the researchers]" for "the team" is partial.)
    const quote = "[The team] reported that solid-state cells reached 500 Wh/kg";
    const columns = importedVerdict(
      source(quote, { verification_status: "verified", verification_snapshot: SHA, verification_edits: JSON.stringify([{ bracket: "[x]", replaces: "made up" }]) }),
      snapshot,
      3,
    );
    expect(columns.verification_status).toBe("verified");
    expect(JSON.parse(String(columns.verification_edits))).toEqual([{ bracket: "[The team]", replaces: "the team" }]);
    // A bracket that adds a negation is partial, whatever the file says.
    const added = "the team reported that solid-state cells [never] reached 500 Wh/kg";
    expect(refusal(() => importedVerdict(source(added, { verification_status: "verified", verification_snapshot: SHA }), snapshot, 4))).toContain("is partial");
    const partial = importedVerdict(source(added, { verification_status: "partial", verification_snapshot: SHA }), snapshot, 4);
    expect(JSON.parse(String(partial.verification_edits))).toEqual([{ bracket: "[never]", replaces: "" }]);
    // A verdict reached without a page has no brackets to list.
    const unreachable = { verification_status: "unreachable", verification_reason: "HTTP error: 404", verification_basis: "fetched", verification_checked_at: 9 };
    expect(refusal(() => importedVerdict(source("q", { ...unreachable, verification_edits: "[]" }), null, 4))).toContain("column verification_edits: must be empty");
    expect(importedVerdict(source("q", unreachable), null, 4).verification_edits).toBeNull();
  });

  it("refuses a verdict claiming more than its snapshot holds, naming the line and column", () => {
    const forged = (quote: string, status: string) => refusal(() => importedVerdict(source(quote, { verification_status: status, verification_snapshot: SHA }), snapshot, 7));
    expect(forged("solid-state cells reached 900 Wh/kg in the lab", "verified")).toMatch(/^Line 7: ledger_evidence, column verification_status: the file says verified, but .* partial/);
    expect(forged("the moon is made of cheese and always was", "partial")).toContain("is not_found");
    expect(forged("the moon is made of cheese and always was", "verified")).toContain("the file says verified");
  });

  it("refuses a page verdict naming no snapshot, or one the file did not carry", () => {
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    expect(refusal(() => importedVerdict(source(quote, { verification_status: "verified" }), null, 2))).toContain("column verification_snapshot: a verified verdict names the snapshot");
    expect(refusal(() => importedVerdict(source(quote, { verification_status: "partial", verification_snapshot: "b".repeat(64) }), snapshot, 2))).toContain("which no earlier line of this file carries");
    expect(refusal(() => importedVerdict(source(quote, { verification_status: "verified", verification_snapshot: SHA }), null, 2))).toContain("which no earlier line of this file carries");
  });

  it("takes a verdict reached without a page within its bounds, and stores pending or none as nothing (checked afresh)", () => {
    const unreachable = { verification_status: "unreachable", verification_reason: "HTTP error: 404", verification_basis: "fetched", verification_checked_at: 9 };
    expect(importedVerdict(source("q", unreachable), null, 4)).toMatchObject(unreachable);
    expect(refusal(() => importedVerdict(source("q", { ...unreachable, verification_score: 1 }), null, 4))).toContain("column verification_score: must be empty");
    expect(refusal(() => importedVerdict(source("q", { ...unreachable, verification_passage: "x" }), null, 4))).toContain("column verification_passage");
    expect(refusal(() => importedVerdict(source("q", { ...unreachable, verification_snapshot: SHA }), snapshot, 4))).toContain("column verification_snapshot");
    const unchecked = { verification_status: "unchecked", verification_reason: "PDF text extraction not available", verification_basis: "fetched", verification_title_mismatch: 0, verification_checked_at: 9 };
    expect(importedVerdict(source("q", unchecked), null, 4)).toMatchObject(unchecked);
    const nothing = Object.fromEntries(VERDICT_COLUMNS.map((column) => [column, null]));
    expect(importedVerdict(source("q", { verification_status: "pending" }), null, 4)).toEqual(nothing);
    expect(importedVerdict(source("q", {}), null, 4)).toEqual(nothing);
    expect(refusal(() => importedVerdict(source("q", { verification_status: "pending", verification_score: 1 }), null, 4))).toContain("must be empty for a source still pending");
    expect(refusal(() => importedVerdict(source("q", { verification_snapshot: SHA }), snapshot, 4))).toContain("must be empty for a source without a verdict");
  });
});

describe("a verdict reached on the text the assistant sent (basis client_text)", () => {
  const quote = "solid-state cells reached 500 Wh/kg in the lab";
  const TEXT_SHA = "c".repeat(64);
  const clientText = { sha256: TEXT_SHA, text: `Subscribers only. ${PAGE}` };
  const walled = unreachable("blocked: HTTP 403 (a bot wall, paywall or rate limit)", 5);
  const columnsFor = (text: string, q = quote) => {
    const v = judgeClientText(q, text, walled, 8);
    return {
      client_text_sha256: TEXT_SHA,
      verification_status: v.status,
      verification_reason: v.reason,
      verification_score: v.score,
      verification_passage: v.passage,
      verification_basis: v.basis,
      verification_snapshot: null,
      verification_checked_at: v.checkedAt,
    };
  };

  it("is judged again on the text the row names; what is stored is the judge's finding, Cairn's fetch reason kept", () => {
    const genuine = columnsFor(clientText.text);
    expect(genuine.verification_status).toBe("verified");
    const { client_text_sha256: _sha, ...verdict } = genuine;
    expect(importedVerdict(source(quote, genuine), null, 3, clientText)).toEqual({ ...verdict, verification_title_mismatch: null, verification_edits: "[]" });
    // Less claimed than the judge finds: the judge's verdict. The file's score and passage are not taken.
    const modest = importedVerdict(source(quote, { ...genuine, verification_status: "not_found", verification_score: 0.1, verification_passage: "made up" }), null, 3, clientText);
    expect(modest).toMatchObject({ verification_status: "verified", verification_score: 1, verification_passage: quote, verification_reason: genuine.verification_reason });
  });

  it("refuses a verdict claiming more than the text holds, naming the line and column", () => {
    const forged = { ...columnsFor(clientText.text, "solid-state cells reached 900 Wh/kg in the lab"), verification_status: "verified" };
    expect(refusal(() => importedVerdict(source("solid-state cells reached 900 Wh/kg in the lab", forged), null, 6, clientText))).toMatch(
      /^Line 6: ledger_evidence, column verification_status: the file says verified, but judged again on the assistant's text it names the source is (partial|not_found)/,
    );
  });

  it("refuses a row naming a text the file did not carry, a client_text verdict naming none, or one naming a snapshot", () => {
    const genuine = columnsFor(clientText.text);
    expect(refusal(() => importedVerdict(source(quote, genuine), null, 2, null))).toContain("column client_text_sha256: names client text cccccccccccc…, which no earlier line of this file carries");
    expect(refusal(() => importedVerdict(source(quote, genuine), null, 2, { ...clientText, sha256: "d".repeat(64) }))).toContain("column client_text_sha256");
    // Even a source still pending keeps only a text the file carried.
    expect(refusal(() => importedVerdict(source(quote, { client_text_sha256: TEXT_SHA, verification_status: "pending" }), null, 2, null))).toContain("column client_text_sha256");
    expect(refusal(() => importedVerdict(source(quote, { ...genuine, client_text_sha256: null }), null, 2, null))).toContain("column client_text_sha256: a verdict on the assistant's text");
    expect(refusal(() => importedVerdict(source(quote, { ...genuine, verification_snapshot: SHA }), snapshot, 2, clientText))).toContain("column verification_snapshot");
    expect(refusal(() => importedVerdict(source(null, genuine), null, 2, clientText))).toContain("has none");
    expect(refusal(() => importedVerdict(source(quote, { ...genuine, verification_checked_at: null }), null, 2, clientText))).toContain("column verification_checked_at");
  });

  it("keeps a text the file carried beside a verdict reached on a page", () => {
    const own = judgeSource({ quote, title: snapshot.title }, { text: PAGE, title: snapshot.title, snapshot: SHA }, 5);
    const row = source(quote, { client_text_sha256: TEXT_SHA, verification_status: "verified", verification_snapshot: SHA, verification_checked_at: 5 });
    expect(importedVerdict(row, snapshot, 3, clientText)).toMatchObject({ verification_status: "verified", verification_basis: "fetched", verification_passage: own.passage });
  });
});

describe("a client_text line", () => {
  it("is read field by field, bounded to what record_evidence takes, and refused when its text does not hash to its sha256", async () => {
    const good = { type: "client_text", sha256: await hashEvidence(PAGE), text: PAGE };
    expect(parseClientTextRecord(good, "Line 3")).toEqual(good);
    for (const [change, field] of [
      [{ key: "orgs/org_other/client-texts/x.txt" }, "key"],
      [{ sha256: "../x" }, "sha256"],
      [{ text: 5 }, "text"],
      [{ text: "" }, "text"],
      [{ text: "x".repeat(CLIENT_TEXT_CHARS + 1) }, "text"],
    ] as const) {
      expect(refusal(() => parseClientTextRecord({ ...good, ...change }, "Line 3")), field).toContain(`Line 3: client_text field ${field}`);
    }
    expect(parseClientTextRecord({ ...good, text: "x".repeat(CLIENT_TEXT_CHARS) }, "Line 3").text).toHaveLength(CLIENT_TEXT_CHARS);
    await expect(checkClientTextHash({ type: "client_text", sha256: good.sha256, text: PAGE }, 5)).resolves.toBeUndefined();
    await expect(checkClientTextHash({ type: "client_text", sha256: good.sha256, text: `${PAGE} More.` }, 5)).rejects.toThrow(/^Line 5: the client text does not hash to its sha256/);
  });
});

describe("a snapshot line", () => {
  const record = async (text = PAGE) => ({
    type: "snapshot",
    sha256: await hashEvidence(text),
    url: "https://example.org/a",
    finalUrl: "https://example.org/a",
    status: 200,
    contentType: "text/html",
    title: "A",
    fetchedAt: 1_790_000_000_000,
    truncated: false,
    text,
  });

  it("is read field by field, with no field beyond a snapshot's", async () => {
    const good = await record();
    expect(parseSnapshotRecord(good, "Line 3")).toEqual(good);
    for (const [change, field] of [
      [{ key: "orgs/org_other/snapshots/x.json" }, "key"],
      [{ sha256: "../x" }, "sha256"],
      [{ url: "file:///etc/passwd" }, "url"],
      [{ status: 42 }, "status"],
      [{ fetchedAt: -1 }, "fetchedAt"],
      [{ truncated: "no" }, "truncated"],
      [{ text: 5 }, "text"],
    ] as const) {
      expect(refusal(() => parseSnapshotRecord({ ...good, ...change }, "Line 3")), field).toContain(`Line 3: snapshot field ${field}`);
    }
  });

  it("is bounded to what a fetch can give, and refused when its text does not hash to its sha256", async () => {
    const over = "x".repeat(SNAPSHOT_TEXT_CHARS + 1);
    expect(refusal(() => parseSnapshotRecord({ type: "snapshot", sha256: SHA, url: "https://a.org", finalUrl: "https://a.org", status: 200, contentType: null, title: null, fetchedAt: 1, truncated: true, text: over }, "Line 4"))).toContain(
      `at most ${SNAPSHOT_TEXT_CHARS} characters`,
    );
    const good = await record();
    await expect(checkSnapshotHash({ ...good, type: "snapshot" }, 5)).resolves.toBeUndefined();
    await expect(checkSnapshotHash({ ...good, type: "snapshot", text: `${PAGE} More.` }, 5)).rejects.toThrow(/^Line 5: the snapshot's text does not hash to its sha256/);
  });
});
