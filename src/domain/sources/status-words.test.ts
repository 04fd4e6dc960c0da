import { describe, expect, it } from "vitest";
import { verificationInWords } from "./status-words";
import { UNREACHABLE_KINDS, VERIFICATION_STATUSES } from "./verification";

describe("a verification status in words", () => {
  it("says every status and every kind of unreachable page in words, never a code", () => {
    const said = [
      ...VERIFICATION_STATUSES.map((status) => verificationInWords({ status, reason: null })),
      ...UNREACHABLE_KINDS.map((kind) => verificationInWords({ status: "unreachable", reason: `${kind}: HTTP 000` })),
      verificationInWords(null),
    ];
    for (const words of said) expect(words).not.toMatch(/_/);
    expect(new Set(said).size).toBe(said.length - 1); // "unreachable" with no reason reads as http_error, said once more
    expect(verificationInWords({ status: "not_found", reason: null })).toBe("not verified (quote not found on the page)");
    expect(verificationInWords({ status: "verified", reason: null })).toBe("verified (quote found on the page)");
    expect(verificationInWords({ status: "unreachable", reason: "dead: HTTP 404 (the page does not exist)" })).toBe("unreachable (the page does not exist: a dead link)");
    expect(verificationInWords({ status: "unreachable", reason: "http_error: HTTP 500" })).toBe("unreachable (the site answered with an error)");
    expect(verificationInWords(null)).toBe("unchecked (not a recorded source)");
  });
});
