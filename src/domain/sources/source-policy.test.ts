import { describe, expect, it } from "vitest";
import { checkSourcePolicy, countPreferred, decideSource, editSourcePolicy, normalizeDomain, SOURCE_POLICY_LIMITS, type SourcePolicy } from "./source-policy";

const policy = (blockedDomains: string[], preferredDomains: string[] = []): SourcePolicy => ({ blockedDomains, preferredDomains });
const domainOf = (input: string) => {
  const result = normalizeDomain(input);
  return result.ok ? result.domain : `refused: ${result.reason}`;
};

describe("normalizeDomain", () => {
  it("reduces what an admin pastes to the domain: case, scheme, path, port, wildcard, trailing dot", () => {
    expect(domainOf("Example.COM")).toBe("example.com");
    expect(domainOf("  https://www.Example.com:8443/a/b?c=d#e ")).toBe("www.example.com");
    expect(domainOf("example.com/path")).toBe("example.com");
    expect(domainOf("example.com.")).toBe("example.com");
    expect(domainOf("*.example.com")).toBe("example.com");
    expect(domainOf(".example.com")).toBe("example.com");
  });

  it("writes an internationalized domain in its punycode form", () => {
    expect(domainOf("bücher.de")).toBe("xn--bcher-kva.de");
    expect(domainOf("https://BÜCHER.de/")).toBe("xn--bcher-kva.de");
  });

  it("refuses IP addresses in every spelling, saying a rule names a domain", () => {
    for (const input of ["127.0.0.1", "http://10.0.0.1/x", "0x7f.1", "2130706433", "[::1]", "https://[2001:db8::1]:8080/"]) {
      expect(domainOf(input), input).toMatch(/^refused: is an IP address/);
    }
  });

  it("refuses garbage with a reason", () => {
    expect(domainOf("")).toBe("refused: is empty");
    expect(domainOf("   ")).toBe("refused: is empty");
    expect(domainOf("not a domain")).toMatch(/^refused: is not a domain name/);
    expect(domainOf("exa!mple.com")).toMatch(/^refused: is not a domain name/);
    expect(domainOf("-example.com")).toMatch(/^refused: is not a domain name/);
    expect(domainOf("example..com")).toMatch(/^refused:/);
    expect(domainOf("user@example.com")).toMatch(/user name/);
    expect(domainOf("mailto:someone")).toMatch(/^refused:/);
    const long = `${"a".repeat(63)}.`.repeat(4);
    expect(domainOf(`${long}com`)).toMatch(/longer than 253/);
    expect(domainOf(`${"a".repeat(64)}.com`)).toMatch(/^refused: is not a domain name/);
    expect(domainOf("x".repeat(SOURCE_POLICY_LIMITS.inputChars + 1))).toMatch(/longer than 2000/);
  });
});

describe("decideSource", () => {
  it("matches the domain and its subdomains, never a lookalike", () => {
    const p = policy(["example.com"]);
    expect(decideSource(p, "https://example.com/a")).toEqual({ kind: "blocked", rule: "example.com" });
    expect(decideSource(p, "https://www.example.com/a")).toEqual({ kind: "blocked", rule: "example.com" });
    expect(decideSource(p, "https://a.b.EXAMPLE.com./a")).toEqual({ kind: "blocked", rule: "example.com" });
    expect(decideSource(p, "https://badexample.com/")).toEqual({ kind: "neither" });
    expect(decideSource(p, "https://example.com.evil.net/")).toEqual({ kind: "neither" });
    expect(decideSource(p, "https://evil.net/?u=example.com")).toEqual({ kind: "neither" });
  });

  it("sees through the spellings of a host the URL parser accepts", () => {
    const p = policy(["example.com"]);
    for (const url of [
      "https://%65xample.com/",
      "https://ex%41mple.com/",
      "https:\\\\www.example.com/x",
      "https://www.example.com%2e/",
      "HTTPS://WWW.EXAMPLE.COM./",
      "https://example.com../",
      "https://example.com\u3002/",
      "https://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/",
      "https://user:pass@www.example.com:8443/",
    ]) {
      expect(decideSource(p, url), url).toEqual({ kind: "blocked", rule: "example.com" });
    }
    // The host is what follows the user name: this one is evil.net, not example.com.
    expect(decideSource(p, "https://example.com@evil.net/")).toEqual({ kind: "neither" });
  });

  it("matches internationalized hosts by their punycode form", () => {
    expect(decideSource(policy(["xn--bcher-kva.de"]), "https://www.bücher.de/")).toEqual({ kind: "blocked", rule: "xn--bcher-kva.de" });
  });

  it("lets a blocked rule win inside a preferred domain, naming the most specific rule", () => {
    const p = policy(["blog.example.org", "example.net", "a.example.net"], ["example.org"]);
    expect(decideSource(p, "https://blog.example.org/post")).toEqual({ kind: "blocked", rule: "blog.example.org" });
    expect(decideSource(p, "https://x.a.example.net/")).toEqual({ kind: "blocked", rule: "a.example.net" });
    expect(decideSource(p, "https://docs.example.org/")).toEqual({ kind: "preferred", rule: "example.org" });
    expect(decideSource(p, "https://other.com/")).toEqual({ kind: "neither" });
  });

  it("says neither for a URL it cannot read or an IP host", () => {
    const p = policy(["example.com"], ["example.org"]);
    expect(decideSource(p, "not a url")).toEqual({ kind: "neither" });
    expect(decideSource(p, "http://93.184.216.34/")).toEqual({ kind: "neither" });
  });

  it("counts sources from preferred domains", () => {
    const p = policy(["bad.org"], ["nature.com", "who.int"]);
    expect(countPreferred(p, ["https://www.nature.com/a", "https://who.int/b", "https://bad.org/", "https://blog.example/", "https://nature.com.fake.io/"])).toBe(2);
    expect(countPreferred(policy([]), ["https://nature.com/"])).toBe(0);
  });
});

describe("checkSourcePolicy", () => {
  it("normalizes both lists and merges duplicates", () => {
    expect(checkSourcePolicy({ blockedDomains: ["Example.com", "https://example.com/x", "spam.net"], preferredDomains: ["nature.com"] })).toEqual({
      ok: true,
      policy: { blockedDomains: ["example.com", "spam.net"], preferredDomains: ["nature.com"] },
    });
  });

  it("points at each bad entry", () => {
    const result = checkSourcePolicy({ blockedDomains: ["ok.com", "10.0.0.1", 7], preferredDomains: "nature.com" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      { path: "sourcePolicy.blockedDomains.1", message: expect.stringContaining('"10.0.0.1" is an IP address') },
      { path: "sourcePolicy.blockedDomains.2", message: "A domain name, as text" },
      { path: "sourcePolicy.preferredDomains", message: "A list of domain names" },
    ]);
  });

  it("bounds each list", () => {
    const many = Array.from({ length: SOURCE_POLICY_LIMITS.domainsPerList + 1 }, (_, i) => `d${i}.com`);
    const result = checkSourcePolicy({ blockedDomains: many, preferredDomains: [] });
    expect(result).toEqual({ ok: false, issues: [{ path: "sourcePolicy.blockedDomains", message: "At most 500 domains (501 given)" }] });
    expect(checkSourcePolicy({ blockedDomains: many.slice(1), preferredDomains: many.slice(1) }).ok).toBe(false);
    expect(checkSourcePolicy({ blockedDomains: many.slice(1), preferredDomains: [] }).ok).toBe(true);
  });

  it("refuses a domain that would be both blocked and preferred, also through a broader blocked rule", () => {
    const same = checkSourcePolicy({ blockedDomains: ["Example.com"], preferredDomains: ["example.com"] });
    expect(same).toEqual({ ok: false, issues: [{ path: "sourcePolicy.preferredDomains.0", message: "example.com is both blocked and preferred: a domain is one or the other" }] });
    const covered = checkSourcePolicy({ blockedDomains: ["example.com"], preferredDomains: ["docs.example.com"] });
    expect(covered.ok ? [] : covered.issues.map((i) => i.message)).toEqual(["docs.example.com is preferred, but the blocked rule example.com covers it: a domain is one or the other"]);
    // A narrower block inside a preferred domain is a coherent policy.
    expect(checkSourcePolicy({ blockedDomains: ["blog.example.com"], preferredDomains: ["example.com"] }).ok).toBe(true);
  });
});

describe("editSourcePolicy", () => {
  it("adds and removes one domain at a time, normalized", () => {
    const start = policy(["spam.net"], ["nature.com"]);
    expect(editSourcePolicy(start, { block: ["HTTPS://Example.com/x"], unprefer: ["Nature.com"], prefer: ["who.int"] })).toEqual({
      ok: true,
      policy: { blockedDomains: ["spam.net", "example.com"], preferredDomains: ["who.int"] },
    });
  });

  it("moves a domain from one list to the other in one edit", () => {
    expect(editSourcePolicy(policy(["x.com"]), { unblock: ["x.com"], prefer: ["x.com"] })).toEqual({ ok: true, policy: { blockedDomains: [], preferredDomains: ["x.com"] } });
  });

  it("refuses to remove what is not there, and to add garbage or a both-ways domain", () => {
    expect(editSourcePolicy(policy([]), { unblock: ["nope.com"] })).toEqual({ ok: false, issues: [{ path: "unblock", message: "nope.com is not in the blocked domains" }] });
    expect(editSourcePolicy(policy([]), { block: ["::1"] }).ok).toBe(false);
    expect(editSourcePolicy(policy(["x.com"]), { prefer: ["x.com"] }).ok).toBe(false);
  });
});
