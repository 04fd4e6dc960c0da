/**
 * People's comments on deliverables and steps, as the REST face and the dashboard make, list and resolve them: the
 * rules (src/domain/research/comments.ts) over the org's comments (src/storage/comment-repository.ts), what they are
 * about checked in the org first (another org's deliverable, plan or step is not found, and nothing is written). A
 * new comment is announced (comment.created, in the outbox with it); the members it mentions by e-mail are notified.
 */
import { notFound } from "../domain/errors";
import { newId } from "../domain/ids";
import type { Services } from "../domain/ports";
import {
  type Comment,
  type CommentTarget,
  fullTargetRefusal,
  mentionedEmails,
  parseNewComment,
  parseResolution,
  sameTarget,
  threadOf,
} from "../domain/research/comments";
import type { WebhookEvent } from "../domain/webhooks/events";
import type { Env } from "../env";
import { webServices } from "./runtime";

/** Who comments: a member of the org (the dashboard's person, or a credential with research:write). */
export interface CommentActor {
  orgId: string;
  userId: string;
}

export interface CommentPerson {
  userId: string;
  email: string;
  name: string;
}

/** A comment as people read it; the author is null once they are no longer a member (their words stay, their name goes). */
export interface CommentView {
  commentId: string;
  outputId: string | null;
  planId: string | null;
  stepId: string | null;
  replyTo: string | null;
  body: string;
  anchor: { heading?: string; quote?: string } | null;
  author: CommentPerson | null;
  createdAt: string;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: CommentPerson | null;
  /** The deliverable version that answered the thread, when one did. */
  answeredBy: { outputId: string; version: number } | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The org's members among `userIds`, by id (the directory holds people). */
async function membersById(env: Env, orgId: string, userIds: readonly string[]): Promise<Map<string, CommentPerson>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const { results } = await env.DB.prepare(
    `SELECT u.id, u.email, u.display_name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND u.id IN (${ids.map(() => "?").join(", ")})`,
  )
    .bind(orgId, ...ids)
    .all<{ id: string; email: string; display_name: string }>();
  return new Map(results.map((row) => [row.id, { userId: row.id, email: row.email, name: row.display_name || row.email }]));
}

/** The org's members among the e-mail addresses (lower-cased), as user ids. */
async function membersByEmail(env: Env, orgId: string, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const { results } = await env.DB.prepare(
    `SELECT u.id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND u.email IN (${emails.map(() => "?").join(", ")})`,
  )
    .bind(orgId, ...emails)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

export async function commentViews(env: Env, orgId: string, comments: readonly Comment[]): Promise<CommentView[]> {
  const people = await membersById(env, orgId, comments.flatMap((c) => (c.resolvedBy ? [c.authorUserId, c.resolvedBy] : [c.authorUserId])));
  return comments.map((comment) => ({
    commentId: comment.commentId,
    outputId: comment.target.kind === "output" ? comment.target.outputId : null,
    planId: comment.planId,
    stepId: comment.target.kind === "step" ? comment.target.stepId : null,
    replyTo: comment.replyTo,
    body: comment.body,
    anchor: comment.anchor,
    author: people.get(comment.authorUserId) ?? null,
    createdAt: new Date(comment.createdAt).toISOString(),
    resolved: comment.resolvedAt !== null,
    resolvedAt: iso(comment.resolvedAt),
    resolvedBy: comment.resolvedBy ? (people.get(comment.resolvedBy) ?? null) : null,
    answeredBy: comment.answeredBy,
  }));
}

/** What the target is, checked in the org: its plan and the name a notification shows. Not found alike for a missing one and another org's. */
async function targetOf(services: Services, orgId: string, target: CommentTarget): Promise<{ planId: string | null; title: string }> {
  if (target.kind === "output") {
    const output = await services.outputs.get(orgId, target.outputId);
    if (!output) throw notFound("research output", target.outputId);
    return { planId: output.planId, title: output.title };
  }
  const state = await services.plans.read(orgId, target.planId, false);
  if (!state.steps.some((step) => step.stepId === target.stepId)) throw notFound("step", target.stepId);
  return { planId: target.planId, title: state.plan.name };
}

const targetName = (target: CommentTarget) => (target.kind === "output" ? "deliverable" : "step");

/** Every comment on a deliverable or a step, oldest first, with its author. */
export async function listComments(env: Env, orgId: string, target: CommentTarget): Promise<{ comments: CommentView[] }> {
  const { services } = await webServices(env, orgId);
  await targetOf(services, orgId, target);
  const comments = target.kind === "output" ? await services.comments.onOutput(orgId, target.outputId) : await services.comments.onStep(orgId, target.planId, target.stepId);
  return { comments: await commentViews(env, orgId, comments) };
}

/** Comments on the steps of a plan, by step (the dashboard's plan page); the plan itself was read by the caller. */
export async function stepComments(env: Env, orgId: string, planId: string): Promise<Map<string, CommentView[]>> {
  const { services } = await webServices(env, orgId);
  const views = await commentViews(env, orgId, await services.comments.onPlanSteps(orgId, planId, 1_000));
  const byStep = new Map<string, CommentView[]>();
  for (const view of views) if (view.stepId) byStep.set(view.stepId, [...(byStep.get(view.stepId) ?? []), view]);
  return byStep;
}

/**
 * Stores a comment (`{body, anchor?, replyTo?}`) on the target. A reply joins the thread of the comment it names, which
 * must be on the same target; it opens that thread again if it was resolved. Mentioned members (by e-mail) are notified.
 */
export async function createComment(env: Env, actor: CommentActor, target: CommentTarget, input: unknown): Promise<CommentView> {
  const fresh = parseNewComment(input);
  const { services, now } = await webServices(env, actor.orgId);
  const { planId, title } = await targetOf(services, actor.orgId, target);
  let replyTo: string | null = null;
  if (fresh.replyTo) {
    const parent = await services.comments.get(actor.orgId, fresh.replyTo);
    if (!parent || !sameTarget(parent.target, target)) throw notFound(`comment on this ${targetName(target)}`, fresh.replyTo);
    replyTo = threadOf(parent);
  }
  const full = fullTargetRefusal(await services.comments.count(actor.orgId, target), targetName(target));
  if (full) throw full;
  const at = now();
  const comment: Comment = {
    commentId: newId("cmt"),
    orgId: actor.orgId,
    target,
    planId,
    replyTo,
    body: fresh.body,
    anchor: fresh.anchor,
    authorUserId: actor.userId,
    createdAt: at,
    resolvedAt: null,
    resolvedBy: null,
    answeredBy: null,
  };
  const mentioned = (await membersByEmail(env, actor.orgId, mentionedEmails(fresh.body))).filter((userId) => userId !== actor.userId);
  const event: WebhookEvent = {
    eventId: newId("msg"),
    orgId: actor.orgId,
    type: "comment.created",
    occurredAt: at,
    data: {
      commentId: comment.commentId,
      outputId: target.kind === "output" ? target.outputId : null,
      planId,
      stepId: target.kind === "step" ? target.stepId : null,
      replyTo,
      title,
      authorUserId: actor.userId,
      mentionedUserIds: mentioned,
    },
  };
  await services.comments.insert(comment, [event]);
  await services.webhookEvents.publish([event]);
  const [view] = await commentViews(env, actor.orgId, [comment]);
  if (!view) throw notFound("comment", comment.commentId);
  return view;
}

/** `{resolved: true}` resolves the thread the comment belongs to; `{resolved: false}` opens it again. Answers the comment as it is now. */
export async function resolveComment(env: Env, actor: CommentActor, target: CommentTarget, commentId: string, input: unknown): Promise<CommentView> {
  const resolved = parseResolution(input);
  const { services, now } = await webServices(env, actor.orgId);
  await targetOf(services, actor.orgId, target);
  const comment = await services.comments.get(actor.orgId, commentId);
  if (!comment || !sameTarget(comment.target, target)) throw notFound(`comment on this ${targetName(target)}`, commentId);
  await services.comments.setResolved(actor.orgId, [threadOf(comment)], resolved ? { resolvedAt: now(), resolvedBy: actor.userId, answeredBy: null } : null);
  const after = await services.comments.get(actor.orgId, commentId);
  const [view] = await commentViews(env, actor.orgId, after ? [after] : []);
  if (!view) throw notFound("comment", commentId);
  return view;
}
