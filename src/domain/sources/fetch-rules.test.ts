import { describe, expect, it } from "vitest";
import { unreachableKind } from "./verification";
import { checkFetchHop, type SourceFetchRules } from "./fetch-rules";

const rules = (over: Partial<SourceFetchRules> = {}): SourceFetchRules => ({ outbound: { allowLoopback: false }, allowedHosts: null, blockedDomains: [], ...over });
const reason = (verdict: ReturnType<typeof checkFetchHop>) => (verdict.allowed ? `allowed ${verdict.url.href}` : verdict.reason);

describe("checkFetchHop", () => {
  it("lets a public https address through, as the URL parser reads it", () => {
    expect(reason(checkFetchHop("https://news.example.org/a", 0, rules()))).toBe("allowed https://news.example.org/a");
  });

  it("refuses, at the first address or any redirect, a host the org blocks (or a subdomain of it), naming the rule", () => {
    const blocking = rules({ blockedDomains: ["spam.net", "localhost"], outbound: { allowLoopback: true } });
    expect(reason(checkFetchHop("https://spam.net/x", 0, blocking))).toBe("refused: the address was refused (blocked by your organization's source policy: spam.net)");
    expect(reason(checkFetchHop("https://www.SPAM.net./x", 3, blocking))).toBe("refused: a redirect was refused (blocked by your organization's source policy: spam.net)");
    expect(reason(checkFetchHop("http://localhost:8080/article.html", 1, blocking))).toBe("refused: a redirect was refused (blocked by your organization's source policy: localhost)");
    expect(reason(checkFetchHop("https://notspam.net/x", 1, blocking))).toBe("allowed https://notspam.net/x");
    expect(unreachableKind(reason(checkFetchHop("https://spam.net/x", 1, blocking)))).toBe("refused");
  });

  it("refuses what the outbound-address guard refuses, and hosts outside SOURCE_CHECK_HOSTS, with the refused code", () => {
    expect(reason(checkFetchHop("https://10.0.0.1/internal", 1, rules()))).toBe("refused: a redirect was refused (private addresses are not allowed)");
    expect(reason(checkFetchHop("http://127.0.0.1/a", 0, rules()))).toBe("refused: the address was refused (loopback addresses are not allowed)");
    const listed = rules({ allowedHosts: new Set(["docs.example.org"]) });
    expect(reason(checkFetchHop("https://docs.example.org/a", 0, listed))).toBe("allowed https://docs.example.org/a");
    expect(reason(checkFetchHop("https://docs.example.org./a", 2, listed))).toBe("allowed https://docs.example.org./a");
    expect(reason(checkFetchHop("https://other.example.org/a", 2, listed))).toBe("refused: a redirect was refused (this deployment fetches only from the hosts SOURCE_CHECK_HOSTS lists)");
    for (const refused of ["https://10.0.0.1/internal", "https://other.example.org/a"]) expect(unreachableKind(reason(checkFetchHop(refused, 1, listed)))).toBe("refused");
  });
});
