import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { mailboxRefusal, parseMailbox } from "./mailbox";
import { parseChannelInput } from "./policy";

describe("mailbox syntax", () => {
  it("takes plain addresses, lowercased", () => {
    for (const ok of ["team@example.com", "Team.Lead+cairn@Sub.Example.CO.uk", "o'brien@example.org", "a_b-c@xn--bcher-kva.example", "x@a-b.io"]) expect(mailboxRefusal(ok), ok).toBeNull();
    expect(parseMailbox("Team@Example.COM", "address")).toBe("team@example.com");
  });

  it("refuses each form that can deliver elsewhere than the address read, saying which", () => {
    const cases: [string, RegExp][] = [
      ["a:b@c.test", /group syntax/],
      ["team:a@b.test,c@d.test;", /more than one address|group syntax/],
      ["=?utf-8?q?x?=@b.test", /encoded word/],
      ["a@[127.0.0.1]", /address literal/],
      ["a@[IPv6:::1]", /address literal|group syntax/],
      ["a@127.0.0.1", /top-level domain/],
      ['"a@b"@c.test', /quoted local part/],
      ["a(comment)@b.test", /comment/],
      ["Eve <eve@evil.test>", /space|display name/],
      ["<eve@evil.test>", /display name/],
      ["a@b.test, c@d.test", /space|more than one/],
      ["a@b@c.test", /more than one @/],
      ["a@localhost", /no dot/],
      [".a@b.test", /dot/],
      ["a..b@b.test", /dot/],
      ["a@-b.test", /host name/],
      ["a@b_c.test", /host name/],
      ["a@b.test\r\nBcc: x@y.test", /space or line break/],
      ["ünï@b.test", /plain ASCII/],
      ["a@", /after the @/],
      ["@b.test", /before the @/],
      ["nobody", /no @/],
      ["", /empty/],
      [`${"a".repeat(65)}@b.test`, /longer than 64/],
      [`a@${"b".repeat(250)}.test`, /longer than/],
    ];
    for (const [address, reason] of cases) expect(mailboxRefusal(address), address).toMatch(reason);
  });

  it("makes a clear validation error naming the field, and the channel input uses it", () => {
    try {
      parseMailbox("a@[127.0.0.1]", "address");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CairnError);
      expect((error as CairnError).message).toContain("address is not an address Cairn sends to: its domain is an address literal");
    }
    expect(() => parseChannelInput({ kind: "email", address: "=?utf-8?q?x?=@b.test", events: ["plan.completed"] })).toThrow(/encoded word/);
    expect(() => parseChannelInput({ kind: "email", address: "a:b@c.test", events: ["plan.completed"] })).toThrow(/group syntax/);
    expect(parseChannelInput({ kind: "email", address: "Team@Example.com", events: ["plan.completed"] })).toEqual({ kind: "email", address: "team@example.com", events: ["plan.completed"] });
  });
});
