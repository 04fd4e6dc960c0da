import { describe, expect, it } from "vitest";
import { unreachableKind } from "./verification";
import { checkFetchHop, mayReuseKeptPage, type SourceFetchRules } from "./fetch-rules";

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

describe("mayReuseKeptPage", () => {
  const direct = { url: "https://news.example.org/a", finalUrl: "https://news.example.org/a" };
  const redirected = { url: "https://short.example.org/x", finalUrl: "https://news.example.org/a" };

  it("reuses a kept page only while its addresses pass today's rules", () => {
    expect(mayReuseKeptPage(direct, rules())).toBe(true);
    expect(mayReuseKeptPage(redirected, rules())).toBe(true);
    // The host it was read from is blocked since, or outside the hosts the deployment fetches from.
    expect(mayReuseKeptPage(direct, rules({ blockedDomains: ["example.org"] }))).toBe(false);
    expect(mayReuseKeptPage({ ...redirected, url: "https://fine.example.com/x" }, rules({ blockedDomains: ["news.example.org"] }))).toBe(false);
    expect(mayReuseKeptPage(direct, rules({ allowedHosts: new Set(["docs.example.org"]) }))).toBe(false);
  });

  it("reads again a redirected page in an org that blocks anything (the hops between are not kept), and a page whose final address is unknown", () => {
    expect(mayReuseKeptPage(redirected, rules({ blockedDomains: ["spam.net"] }))).toBe(false);
    expect(mayReuseKeptPage(direct, rules({ blockedDomains: ["spam.net"] }))).toBe(true);
    expect(mayReuseKeptPage({ url: direct.url, finalUrl: null }, rules())).toBe(false);
  });
});
