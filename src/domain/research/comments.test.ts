import { describe, expect, it } from "vitest";
import type { CairnError } from "../errors";
import { answerableRefusal, bodyIssue, type Comment, COMMENT_LIMITS, fullTargetRefusal, mentionedEmails, parseNewComment, parseResolution, threadOf } from "./comments";

const comment = (over: Partial<Comment>): Comment => ({
  commentId: "cmt_aaaaaaaaaaaaaaaaaaaaaaaaa",
  orgId: "org_x",
  target: { kind: "output", outputId: "out_1" },
  planId: "plan_1",
  replyTo: null,
  body: "Is this right?",
  anchor: null,
  authorUserId: "usr_1",
  createdAt: 1,
  resolvedAt: null,
  resolvedBy: null,
  answeredBy: null,
  ...over,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as CairnError;
  }
  throw new Error("not refused");
};

describe("a new comment", () => {
  it("takes a body, an optional anchor (blank parts dropped) and a reply", () => {
    expect(parseNewComment({ body: "See **this**", anchor: { heading: " Costs ", quote: "" } })).toEqual({ body: "See **this**", anchor: { heading: "Costs" }, replyTo: null });
    expect(parseNewComment({ body: "Agreed", replyTo: "cmt_aaaaaaaaaaaaaaaaaaaaaaaaa" })).toEqual({ body: "Agreed", anchor: null, replyTo: "cmt_aaaaaaaaaaaaaaaaaaaaaaaaa" });
  });

  it("refuses, by name, an empty, huge, long or deeply nested body, unknown fields, a bad anchor and an anchored reply", () => {
    expect(refusal(() => parseNewComment({ body: "  " })).message).toContain("must not be empty");
    expect(refusal(() => parseNewComment({ body: "x".repeat(COMMENT_LIMITS.bodyChars + 1) })).message).toContain(`at most ${COMMENT_LIMITS.bodyChars}`);
    expect(refusal(() => parseNewComment({ body: "a\n".repeat(COMMENT_LIMITS.bodyLines + 1) })).message).toContain("lines");
    expect(refusal(() => parseNewComment({ body: `${"> ".repeat(40)}deep` })).message).toContain("nests");
    expect(refusal(() => parseNewComment({ body: `${"- ".repeat(40)}deep` })).message).toContain("line 1");
    expect(refusal(() => parseNewComment({ body: "x", author: "someone" })).message).toContain("Unknown fields: author");
    expect(refusal(() => parseNewComment({ body: "x", anchor: { heading: "h".repeat(COMMENT_LIMITS.headingChars + 1) } })).message).toContain("anchor.heading");
    expect(refusal(() => parseNewComment({ body: "x", anchor: "Costs" })).message).toContain("anchor is an object");
    expect(refusal(() => parseNewComment({ body: "x", replyTo: "../etc" })).message).toContain("replyTo");
    expect(refusal(() => parseNewComment({ body: "x", replyTo: "cmt_aaaaaaaaaaaaaaaaaaaaaaaaa", anchor: { quote: "q" } })).message).toContain("A reply has no anchor");
    expect(bodyIssue("> > quoted twice\n- a list")).toBeNull();
  });

  it("takes {resolved: true|false} and nothing else", () => {
    expect(parseResolution({ resolved: true })).toBe(true);
    expect(parseResolution({ resolved: false })).toBe(false);
    expect(refusal(() => parseResolution({ resolved: "yes" })).message).toContain("true");
    expect(refusal(() => parseResolution({ resolved: true, body: "x" })).message).toContain("Unknown fields");
  });
});

describe("mentions, threads and bounds", () => {
  it("finds each mentioned e-mail address once, lower-cased, at most the limit", () => {
    expect(mentionedEmails("@Ana@Example.com and bo@example.org, again ana@example.com")).toEqual(["ana@example.com", "bo@example.org"]);
    expect(mentionedEmails(Array.from({ length: 30 }, (_, i) => `p${i}@example.com`).join(" "))).toHaveLength(COMMENT_LIMITS.mentions);
    expect(mentionedEmails("no address here @someone")).toEqual([]);
  });

  it("joins a reply to a reply to the thread's first comment", () => {
    expect(threadOf(comment({ replyTo: null }))).toBe("cmt_aaaaaaaaaaaaaaaaaaaaaaaaa");
    expect(threadOf(comment({ commentId: "cmt_b", replyTo: "cmt_first" }))).toBe("cmt_first");
  });

  it("refuses a comment past the bound of its target", () => {
    expect(fullTargetRefusal(COMMENT_LIMITS.perTarget - 1, "deliverable")).toBeNull();
    expect(fullTargetRefusal(COMMENT_LIMITS.perTarget, "deliverable")?.code).toBe("conflict");
  });
});

describe("answersComments", () => {
  const onOutput = comment({ commentId: "cmt_out" });
  const onStep = comment({ commentId: "cmt_step", target: { kind: "step", planId: "plan_1", stepId: "step_1" } });
  const elsewhere = comment({ commentId: "cmt_other", target: { kind: "output", outputId: "out_2" }, planId: "plan_2" });

  it("accepts comments on the deliverable and on its plan's steps", () => {
    expect(answerableRefusal(["cmt_out", "cmt_step"], [onOutput, onStep], { outputId: "out_1", planId: "plan_1" })).toBeNull();
    // A first version answers its plan's step comments.
    expect(answerableRefusal(["cmt_step"], [onStep], { outputId: null, planId: "plan_1" })).toBeNull();
  });

  it("refuses unknown ids and comments about something else, naming them", () => {
    expect(answerableRefusal(["cmt_gone"], [], { outputId: "out_1", planId: "plan_1" })?.message).toContain("do not exist: cmt_gone");
    expect(answerableRefusal(["cmt_other"], [elsewhere], { outputId: "out_1", planId: "plan_1" })?.message).toContain("about another deliverable or plan: cmt_other");
    expect(answerableRefusal(["cmt_out"], [onOutput], { outputId: null, planId: "plan_1" })?.message).toContain("cmt_out");
  });
});
