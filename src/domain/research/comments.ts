import { conflict, validationError } from "../errors";
import { ID_PATTERN } from "../ids";

/**
 * People's comments on a deliverable or on a step's result, optionally anchored to a section (its heading) or a
 * quoted passage. A comment is a person's words about the research: shown to people beside what it is about, and to
 * the assistant as untrusted text to weigh (never instructions). Pure: what a comment may hold, who it mentions, and
 * what a thread's state is.
 *
 * Threads are one level deep: a reply names the thread's first comment (`replyTo`); a reply to a reply joins the same
 * thread. A thread is resolved or open as a whole (resolving any comment of it resolves the thread; a new reply to a
 * resolved thread opens it again).
 */

export const COMMENT_LIMITS = {
  /** Characters of a comment's Markdown body. */
  bodyChars: 8_000,
  /** Lines of a body, blank ones included. */
  bodyLines: 400,
  /** Characters of a line's leading indentation, block quote and list markers: how deep Markdown may nest. */
  linePrefixChars: 32,
  headingChars: 300,
  quoteChars: 1_000,
  /** Comments (replies included) on one deliverable or one step: what its page lists whole. */
  perTarget: 200,
  /** Members one comment notifies by mentioning their e-mail address. */
  mentions: 10,
  /** Open comments an assistant's read lists (newest first), and the characters of each body and anchor part it shows. */
  forAssistant: 20,
  assistantBodyChars: 800,
  assistantAnchorChars: 200,
  /** Characters of JSON the listed comments take together in one read (newest first; at least one is listed). */
  assistantListChars: 6_000,
  /** Comments one deliverable version may answer. */
  answered: 50,
} as const;

export type CommentTarget = { kind: "output"; outputId: string } | { kind: "step"; planId: string; stepId: string };

export interface CommentAnchor {
  heading?: string;
  quote?: string;
}

export interface Comment {
  commentId: string;
  orgId: string;
  target: CommentTarget;
  /** The plan the comment is about: the step's, or the deliverable's (null for a deliverable of no plan). */
  planId: string | null;
  /** The thread's first comment, for a reply; null for a thread's first comment. */
  replyTo: string | null;
  body: string;
  anchor: CommentAnchor | null;
  authorUserId: string;
  createdAt: number;
  resolvedAt: number | null;
  resolvedBy: string | null;
  /** The deliverable version that answered the thread (store_research_output's answersComments). */
  answeredBy: { outputId: string; version: number } | null;
}

export interface NewComment {
  body: string;
  anchor: CommentAnchor | null;
  replyTo: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function onlyKeys(value: Record<string, unknown>, keys: readonly string[], where: string): void {
  const unknown = Object.keys(value).filter((key) => !keys.includes(key));
  if (unknown.length) {
    throw validationError(`Unknown fields${where}: ${unknown.map((k) => k.slice(0, 40)).join(", ")}. A comment is {body, anchor?: {heading?, quote?}, replyTo?}.`, unknown.map((k) => ({ path: k.slice(0, 40), message: "Not a field" })));
  }
}

const CONTAINER_PREFIX = /^[ \t>*+\-\d.)]*/;

/** Why a body is refused, or null: empty, too long, too many lines, or nested deeper than a person writes. */
export function bodyIssue(body: string): string | null {
  if (body.trim() === "") return "body must not be empty.";
  if (body.length > COMMENT_LIMITS.bodyChars) return `body has ${body.length} characters; a comment holds at most ${COMMENT_LIMITS.bodyChars}.`;
  const lines = body.split("\n");
  if (lines.length > COMMENT_LIMITS.bodyLines) return `body has ${lines.length} lines; a comment holds at most ${COMMENT_LIMITS.bodyLines}.`;
  const deep = lines.findIndex((line) => (CONTAINER_PREFIX.exec(line)?.[0].length ?? 0) > COMMENT_LIMITS.linePrefixChars);
  if (deep >= 0) return `line ${deep + 1} of body nests quotes, lists or indentation more than ${COMMENT_LIMITS.linePrefixChars} characters deep.`;
  return null;
}

function textField(value: unknown, path: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw validationError(`${path} must be text.`, [{ path, message: "Text" }]);
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (trimmed.length > max) throw validationError(`${path} has ${trimmed.length} characters; at most ${max}.`, [{ path, message: "Too long" }]);
  return trimmed;
}

/** A comment as a person sends it: `{body, anchor?: {heading?, quote?}, replyTo?}`, each field checked. */
export function parseNewComment(input: unknown): NewComment {
  if (!isObject(input)) throw validationError("The body must be a JSON object: {body, anchor?: {heading?, quote?}, replyTo?}.");
  onlyKeys(input, ["body", "anchor", "replyTo"], "");
  if (typeof input.body !== "string") throw validationError("body is required: the comment's text (Markdown).", [{ path: "body", message: "Required text" }]);
  const issue = bodyIssue(input.body);
  if (issue) throw validationError(`The comment was not stored: ${issue}`, [{ path: "body", message: issue }]);
  let anchor: CommentAnchor | null = null;
  if (input.anchor !== undefined && input.anchor !== null) {
    if (!isObject(input.anchor)) throw validationError("anchor is an object: {heading?, quote?}.", [{ path: "anchor", message: "An object" }]);
    onlyKeys(input.anchor, ["heading", "quote"], " in anchor");
    const heading = textField(input.anchor.heading, "anchor.heading", COMMENT_LIMITS.headingChars);
    const quote = textField(input.anchor.quote, "anchor.quote", COMMENT_LIMITS.quoteChars);
    anchor = heading || quote ? { ...(heading ? { heading } : {}), ...(quote ? { quote } : {}) } : null;
  }
  let replyTo: string | null = null;
  if (input.replyTo !== undefined && input.replyTo !== null) {
    if (typeof input.replyTo !== "string" || !ID_PATTERN.test(input.replyTo)) throw validationError("replyTo is the id of a comment on the same deliverable or step.", [{ path: "replyTo", message: "A comment id" }]);
    replyTo = input.replyTo;
    if (anchor) throw validationError("A reply has no anchor of its own: it is about what its thread is about.", [{ path: "anchor", message: "Not on a reply" }]);
  }
  return { body: input.body, anchor, replyTo };
}

/** PATCH …/comments/{commentId}: `{resolved: true}` resolves the comment's thread, `{resolved: false}` opens it again. */
export function parseResolution(input: unknown): boolean {
  if (!isObject(input)) throw validationError("The body must be a JSON object: {resolved: true}.");
  const unknown = Object.keys(input).filter((key) => key !== "resolved");
  if (unknown.length) throw validationError(`Unknown fields: ${unknown.map((k) => k.slice(0, 40)).join(", ")}. Send {resolved: true} or {resolved: false}.`);
  if (typeof input.resolved !== "boolean") throw validationError("resolved is true (resolve the thread) or false (open it again).", [{ path: "resolved", message: "true or false" }]);
  return input.resolved;
}

/** The thread a new reply joins: the first comment of the thread `parent` belongs to. */
export const threadOf = (parent: Pick<Comment, "commentId" | "replyTo">): string => parent.replyTo ?? parent.commentId;

/** Whether two targets are the same deliverable or step. */
export function sameTarget(a: CommentTarget, b: CommentTarget): boolean {
  if (a.kind === "output" && b.kind === "output") return a.outputId === b.outputId;
  if (a.kind === "step" && b.kind === "step") return a.planId === b.planId && a.stepId === b.stepId;
  return false;
}

/** What a target holds already refuses one more comment. */
export function fullTargetRefusal(count: number, what: string) {
  return count >= COMMENT_LIMITS.perTarget
    ? conflict(`This ${what} has ${count} comments, the most one holds (${COMMENT_LIMITS.perTarget}); resolve threads and start a new version's discussion, or comment on a step.`)
    : null;
}

const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+/g;

/** The e-mail addresses a body mentions (with or without a leading @), lower-cased, each once, at most COMMENT_LIMITS.mentions. */
export function mentionedEmails(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(EMAIL)) {
    found.add(match[0].toLowerCase());
    if (found.size >= COMMENT_LIMITS.mentions) break;
  }
  return [...found];
}

/**
 * The comments a deliverable version may say it answers: ids of the org's comments on that deliverable or on a step
 * of its plan. Refused whole, naming each id that is not one (unknown, another org's, or about something else).
 */
export function answerableRefusal(ids: readonly string[], found: readonly Comment[], output: { outputId: string | null; planId: string | null }) {
  const byId = new Map(found.map((comment) => [comment.commentId, comment]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) {
    return validationError(`answersComments names comments that do not exist: ${unknown.slice(0, 10).join(", ")}. Nothing was stored.`, unknown.slice(0, 10).map((id) => ({ path: "answersComments", message: `No comment ${id}` })));
  }
  const elsewhere = ids.filter((id) => {
    const comment = byId.get(id);
    if (!comment) return false;
    if (comment.target.kind === "output") return comment.target.outputId !== output.outputId;
    return comment.planId === null || comment.planId !== output.planId;
  });
  if (elsewhere.length) {
    return validationError(
      `answersComments names comments about another deliverable or plan: ${elsewhere.slice(0, 10).join(", ")}. A version answers comments on this deliverable or on its plan's steps. Nothing was stored.`,
      elsewhere.slice(0, 10).map((id) => ({ path: "answersComments", message: `Comment ${id} is about something else` })),
    );
  }
  return null;
}
