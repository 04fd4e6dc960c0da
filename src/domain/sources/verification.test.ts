import { describe, expect, it } from "vitest";
import { checkBudget, httpFailureReason, judgeSource, readableKind } from "./verification";

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

  it("calls bot walls and paywalls blocked, never dead", () => {
    for (const status of [401, 403, 429, 503]) expect(httpFailureReason(status)).toMatch(/^blocked: /);
    expect(httpFailureReason(404)).toBe("HTTP error: 404");
    expect(httpFailureReason(500)).toBe("HTTP error: 500");
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
});
