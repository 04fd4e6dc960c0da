import { describe, expect, it } from "vitest";
import { checkBudget, clientTextApplies, editsOf, fetchReasonOf, httpFailureReason, isDeadSource, judgeClientText, judgeSource, readableKind, SOURCE_CHECK_LIMITS, storedEdits, unchecked, unreachable, unreachableKind } from "./verification";

describe("source verification policy", () => {
  it("reads HTML, text, Markdown and JSON, and names why anything else is not read", () => {
    expect(readableKind("text/html; charset=utf-8")).toBe("html");
    expect(readableKind("application/xhtml+xml")).toBe("html");
    expect(readableKind("text/plain")).toBe("text");
    expect(readableKind(null)).toBe("text");
    expect(readableKind("text/markdown")).toBe("markdown");
    expect(readableKind("application/ld+json")).toBe("json");
    expect(readableKind("application/pdf")).toBe("pdf");
    expect(readableKind("application/x-pdf")).toBe("pdf");
    const pdf = new TextEncoder().encode("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj");
    expect(readableKind("application/octet-stream", pdf)).toBe("pdf");
    expect(readableKind(null, pdf)).toBe("pdf");
    expect(readableKind("application/octet-stream", new TextEncoder().encode("PK\u0003\u0004 an archive"))).toEqual({ unchecked: "content type application/octet-stream is not read" });
    expect(readableKind("text/html", pdf)).toBe("html"); // a declared type other than generic bytes is believed
    expect(readableKind("image/png")).toEqual({ unchecked: "content type image/png is not read" });
  });

  it("calls 404 and 410 dead, bot walls and paywalls walled (never dead), any other status an HTTP error: each by its stable code", () => {
    for (const status of [401, 403, 429, 503]) {
      expect(httpFailureReason(status)).toBe(`walled: HTTP ${status} (a bot wall, paywall or rate limit)`);
      expect(unreachableKind(httpFailureReason(status))).toBe("walled");
    }
    expect(httpFailureReason(404)).toBe("dead: HTTP 404 (the page does not exist)");
    expect(httpFailureReason(410)).toBe("dead: HTTP 410 (the page is gone)");
    for (const status of [404, 410]) expect(isDeadSource(unreachable(httpFailureReason(status), 5))).toBe(true);
    for (const status of [400, 402, 405, 418, 451, 500, 502, 504, 530, 599]) {
      expect(httpFailureReason(status)).toBe(`http_error: HTTP ${status}`);
      expect(unreachableKind(httpFailureReason(status))).toBe("http_error");
    }
  });

  it("reads an unreachable reason's stable code, and the spellings stored before the codes", () => {
    expect(unreachableKind("dead: HTTP 404 (the page does not exist)")).toBe("dead");
    expect(unreachableKind("walled: HTTP 403 (a bot wall, paywall or rate limit)")).toBe("walled");
    expect(unreachableKind("refused: a redirect went to a blocked domain (example.org)")).toBe("refused");
    expect(unreachableKind("HTTP error: 404")).toBe("dead");
    expect(unreachableKind("HTTP error: 410")).toBe("dead");
    expect(unreachableKind("HTTP error: 4041")).toBe("http_error");
    expect(unreachableKind("HTTP error: 500")).toBe("http_error");
    expect(unreachableKind("blocked: HTTP 429 (a bot wall, paywall or rate limit)")).toBe("walled");
    expect(unreachableKind("blocked: the address was refused (private addresses are not allowed)")).toBe("refused");
    expect(unreachableKind("DNS or connection: internal error")).toBe("connection");
    expect(unreachableKind("timeout: no complete answer within 15 s")).toBe("timeout");
    expect(unreachableKind("nonsense: whatever")).toBe("http_error");
    expect(unreachableKind(null)).toBe("http_error");
    expect(isDeadSource({ status: "unreachable", reason: "HTTP error: 404" })).toBe(true);
    expect(isDeadSource({ status: "unreachable", reason: "blocked: HTTP 403 (a bot wall, paywall or rate limit)" })).toBe(false);
    expect(isDeadSource({ status: "not_found", reason: "dead: looks like a code" })).toBe(false);
  });

  it("judges the quote against the page and the recorded title against the page's", () => {
    const page = { text: "The survey covered 1,204 households in 2025 across four regions.", title: "Household survey 2025 | Stats Office", snapshot: "abc" };
    expect(judgeSource({ quote: "The survey covered 1,204 households in 2025", title: "Household survey 2025" }, page, 7)).toEqual({
      status: "verified",
      reason: null,
      score: 1,
      passage: "The survey covered 1,204 households in 2025",
      basis: "fetched",
      titleMismatch: false,
      snapshot: "abc",
      checkedAt: 7,
      edits: [],
    });
    const absent = judgeSource({ quote: "Rents doubled in every region last year", title: "Quarterly tax guidance" }, page, 7);
    expect(absent).toMatchObject({ status: "not_found", passage: null, titleMismatch: true });
    expect(judgeSource({ quote: null, title: "Household survey 2025" }, page, 7)).toMatchObject({ status: "unchecked", reason: "no quote was recorded to check", snapshot: "abc" });
    expect(judgeSource({ quote: "covered", title: "x" }, page, 7)).toMatchObject({ status: "unchecked", score: null });
  });

  it("admits checks within the per-minute and per-day limits, and says when to retry past them", () => {
    const limits = { perMinute: 60, perDay: 2000 };
    expect(checkBudget({ lastMinute: 10, lastDay: 100 }, 50, limits)).toBeNull();
    expect(checkBudget({ lastMinute: 11, lastDay: 100 }, 50, limits)).toMatchObject({ retryAfterSeconds: 60 });
    expect(checkBudget({ lastMinute: 0, lastDay: 1990 }, 11, limits)).toMatchObject({ retryAfterSeconds: 3600 });
    expect(checkBudget({ lastMinute: 999, lastDay: 9999 }, 0, limits)).toBeNull();
  });

  it("lets the assistant's text stand in only where Cairn could not read the page, and only with a quote to look for", () => {
    const blocked = unreachable(httpFailureReason(403), 5);
    expect(clientTextApplies(unreachable("blocked: HTTP 403 (a bot wall, paywall or rate limit)", 5), "Rents doubled in every region")).toBe(true);
    const pdf = unchecked("PDF text extraction not available", 5);
    const read = judgeSource({ quote: "Rents doubled in every region last year", title: "x" }, { text: "Nothing about rents here at all.", title: null, snapshot: "abc" }, 5);
    expect(clientTextApplies(blocked, "Rents doubled in every region")).toBe(true);
    expect(clientTextApplies(pdf, "Rents doubled in every region")).toBe(true);
    // Cairn read the page: its own reading decides, found or not.
    expect(clientTextApplies(read, "Rents doubled in every region")).toBe(false);
    expect(clientTextApplies(judgeSource({ quote: null, title: "x" }, { text: "page", title: null, snapshot: "abc" }, 5), "q")).toBe(false);
    expect(clientTextApplies(unreachable("timeout: no complete answer within 15 s", 5), "Rents doubled in every region")).toBe(true);
    // A page that may not exist (a made-up URL): the assistant's text verifies nothing.
    for (const reason of [
      httpFailureReason(404),
      httpFailureReason(410),
      httpFailureReason(500),
      "connection: internal error",
      "refused: the address was refused (private addresses are not allowed)",
      "http_error: more than 5 redirects",
      "DNS or connection: getaddrinfo ENOTFOUND",
      "blocked: the address was refused (private addresses are not allowed)",
      "HTTP error: more than 5 redirects",
    ]) {
      expect(clientTextApplies(unreachable(reason, 5), "Rents doubled in every region"), reason).toBe(false);
    }
    expect(clientTextApplies(blocked, null)).toBe(false);
    expect(clientTextApplies(blocked, "  ")).toBe(false);
  });

  it("judges the quote against the assistant's text with basis client_text and a reason saying so, never as Cairn's reading", () => {
    const blocked = unreachable("blocked: HTTP 403 (a bot wall, paywall or rate limit)", 5);
    const text = "Members only. The survey covered 1,204 households in 2025 across four regions.";
    const found = judgeClientText("The survey covered 1,204 households in 2025", text, blocked, 9);
    expect(found).toEqual({
      status: "verified",
      reason: "checked against text the assistant supplied, not a page Cairn read (Cairn's fetch: blocked: HTTP 403 (a bot wall, paywall or rate limit))",
      score: 1,
      passage: "The survey covered 1,204 households in 2025",
      basis: "client_text",
      titleMismatch: null,
      snapshot: null,
      checkedAt: 9,
      edits: [],
    });
    const absent = judgeClientText("Rents doubled in every region last year", text, blocked, 9);
    expect(absent).toMatchObject({ status: "not_found", basis: "client_text", passage: null, snapshot: null });
    expect(absent.reason).toMatch(/^checked against text the assistant supplied, not a page Cairn read \(Cairn's fetch: blocked: HTTP 403.*\); /);
    // One number changed is not the quote.
    expect(judgeClientText("The survey covered 1,205 households in 2025", text, blocked, 9).status).not.toBe("verified");
  });

  it("reads back why Cairn could not read the page from a verdict's reason on the assistant's text, whatever the matcher added", () => {
    const text = "Members only. The survey covered 1,204 households in 2025 across four regions.";
    for (const fetch of ["blocked: HTTP 403 (a bot wall, paywall or rate limit)", "timeout: no complete answer within 15 s", "PDF text extraction not available"]) {
      const cairns = { status: "unreachable" as const, reason: fetch };
      for (const quote of ["The survey covered 1,204 households in 2025", "The survey covered 1,205 households in 2025", "Rents doubled in every region last year"]) {
        const judged = judgeClientText(quote, text, cairns, 9);
        expect(fetchReasonOf(judged.reason), `${fetch} / ${judged.status}`).toBe(fetch);
      }
    }
    // A reason without a fetch reason in it, or not one given for the assistant's text: none.
    expect(fetchReasonOf(judgeClientText("The survey", text, { status: "unchecked", reason: null }, 9).reason)).toBe("unchecked");
    expect(fetchReasonOf("HTTP error: 404")).toBeNull();
    expect(fetchReasonOf(null)).toBeNull();
    expect(fetchReasonOf("checked against text the assistant supplied, not a page Cairn read (Cairn's fetch: )")).toBeNull();
    // Bounded, whatever a file makes it.
    expect(fetchReasonOf(`checked against text the assistant supplied, not a page Cairn read (Cairn's fetch: ${"x".repeat(3000)})`)?.length).toBe(500);
  });
});

describe("a verdict's brackets (edits)", () => {
  const page = { text: "Asked about trade, she said exports had grown by 5 percent.", title: null, snapshot: "a".repeat(64) };

  it("lists each bracket with the page words it stands for, on a verified or partial verdict only", () => {
    expect(judgeSource({ quote: "[the minister] said exports had grown", title: "t" }, page, 1).edits).toEqual([{ bracket: "[the minister]", replaces: "she" }]);
    const added = judgeSource({ quote: "she said exports had [not] grown", title: "t" }, page, 1);
    expect(added).toMatchObject({ status: "partial", edits: [{ bracket: "[not]", replaces: "" }] });
    expect(added.reason).toContain('"[not]"');
    expect(judgeSource({ quote: "the moon is made of cheese [sic]", title: "t" }, page, 1).edits).toBeNull();
    expect(unreachable("HTTP error: 404", 1).edits).toBeUndefined();
  });

  it("keeps a bounded list, and reads stored lists back (anything else as none)", () => {
    const many = `she said ${Array.from({ length: 60 }, () => "[sic]").join(" ")} exports had grown`;
    const edits = judgeSource({ quote: many, title: "t" }, page, 1).edits ?? [];
    expect(edits).toHaveLength(SOURCE_CHECK_LIMITS.editsListed);
    expect(editsOf(storedEdits(edits))).toEqual(edits);
    expect(editsOf(null)).toBeNull();
    expect(editsOf("not json")).toBeNull();
    expect(editsOf('{"bracket":"[a]"}')).toBeNull();
    expect(editsOf('[{"bracket":"[a]","replaces":"b"},{"bracket":1}]')).toEqual([{ bracket: "[a]", replaces: "b" }]);
  });
});
