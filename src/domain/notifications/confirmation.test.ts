import { describe, expect, it } from "vitest";
import {
  CONFIRMATION_LIMITS,
  CONFIRMATION_TOKEN_PATTERN,
  confirmationExpiry,
  confirmationOf,
  maySend,
  needsConfirmation,
  newConfirmationToken,
  nextLinkAt,
  renderConfirmationRequest,
} from "./confirmation";

describe("confirming an address outside the org's members", () => {
  it("asks every e-mail address but a member's own, never a Slack channel", () => {
    expect(needsConfirmation({ kind: "email", address: "victim@outside.example" }, [])).toBe(true);
    expect(needsConfirmation({ kind: "email", address: "ada@example.com" }, ["Ada@Example.com"])).toBe(false);
    expect(needsConfirmation({ kind: "slack" }, [])).toBe(false);
  });

  it("sends nothing but the link until confirmed; links are 256-bit tokens that expire", () => {
    expect(maySend({ confirmedAt: null })).toBe(false);
    expect(maySend({ confirmedAt: 1 })).toBe(true);
    expect(confirmationOf({ confirmedAt: null })).toBe("awaiting_confirmation");
    const token = newConfirmationToken();
    expect(token).toMatch(CONFIRMATION_TOKEN_PATTERN);
    expect(newConfirmationToken()).not.toBe(token);
    expect(confirmationExpiry(0)).toBe(CONFIRMATION_LIMITS.validHours * 3_600_000);
    // A new link at most every resendMinutes: the next may go that long after the current one was sent.
    const sentAt = 1_000_000;
    expect(nextLinkAt(confirmationExpiry(sentAt))).toBe(sentAt + CONFIRMATION_LIMITS.resendMinutes * 60_000);
    expect(nextLinkAt(null)).toBe(0);
  });

  it("says who asks and what confirming does, the org's name escaped and on one line", () => {
    const message = renderConfirmationRequest('Acme <b>"x"</b>\r\nBcc: y@z.test', "https://cairn.example/notifications/confirm/T", Date.UTC(2026, 11, 1, 12, 0));
    expect(message.subject).not.toMatch(/[\r\n]/);
    expect(message.text).toContain("Confirm: https://cairn.example/notifications/confirm/T");
    expect(message.text).toContain("until 2026-12-01 12:00 UTC");
    expect(message.html).toContain("Acme &lt;b&gt;&quot;x&quot;&lt;/b&gt; Bcc: y@z.test");
    expect(message.html).not.toContain("<b>");
  });
});
