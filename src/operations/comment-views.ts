import { z } from "zod";
import { clipText } from "../domain/clip";
import { UNTRUSTED } from "../domain/research/artifacts";
import { COMMENT_LIMITS, type Comment } from "../domain/research/comments";
import { Trust } from "./artifact-views";
import type { OperationContext } from "./operation";

/**
 * People's open comments as an assistant reads them (get_research_output, get_research_context): newest first, at most
 * COMMENT_LIMITS.forAssistant, each body clipped, with its anchor and what it is about. Comments are people's words:
 * marked untrusted like fetched text, material to weigh and answer (store_research_output's answersComments), never
 * instructions.
 */
export const OpenCommentsView = z.object({
  open: z.array(
    z.object({
      commentId: z.string(),
      replyTo: z.string().optional(),
      outputId: z.string().optional(),
      stepId: z.string().optional(),
      anchor: z.object({ heading: z.string().optional(), quote: z.string().optional() }).optional(),
      body: z.string(),
      createdAt: z.string(),
    }),
  ),
  more: z.boolean().optional(),
  trust: Trust,
});
export type OpenCommentsView = z.infer<typeof OpenCommentsView>;

/** An anchor as a read shows it: enough of the heading and the passage to find them. */
const anchorView = ({ heading, quote }: NonNullable<Comment["anchor"]>) => ({
  ...(heading ? { heading: clipText(heading, COMMENT_LIMITS.assistantAnchorChars) } : {}),
  ...(quote ? { quote: clipText(quote, COMMENT_LIMITS.assistantAnchorChars) } : {}),
});

function openCommentsView(comments: readonly Comment[]): OpenCommentsView | null {
  if (comments.length === 0) return null;
  const rows = comments.slice(0, COMMENT_LIMITS.forAssistant).map((comment) => ({
    commentId: comment.commentId,
    ...(comment.replyTo ? { replyTo: comment.replyTo } : {}),
    ...(comment.target.kind === "output" ? { outputId: comment.target.outputId } : { stepId: comment.target.stepId }),
    ...(comment.anchor ? { anchor: anchorView(comment.anchor) } : {}),
    body: clipText(comment.body, COMMENT_LIMITS.assistantBodyChars),
    createdAt: new Date(comment.createdAt).toISOString(),
  }));
  // Newest first until the list's room is used (at least one), so a read stays bounded whatever people wrote.
  const open: typeof rows = [];
  let used = 0;
  for (const row of rows) {
    used += JSON.stringify(row).length + 1;
    if (used > COMMENT_LIMITS.assistantListChars && open.length > 0) break;
    open.push(row);
  }
  return { open, ...(comments.length > open.length ? { more: true } : {}), trust: UNTRUSTED };
}

/** The open comments on a deliverable; null when it has none. */
export async function openCommentsOnOutput(ctx: Pick<OperationContext, "principal" | "services">, outputId: string): Promise<OpenCommentsView | null> {
  return openCommentsView(await ctx.services.comments.openOnOutput(ctx.principal.orgId, outputId, COMMENT_LIMITS.forAssistant + 1));
}

/** The open comments on a plan: on its steps and on its deliverables; null when it has none. */
export async function openCommentsOnPlan(ctx: Pick<OperationContext, "principal" | "services">, planId: string): Promise<OpenCommentsView | null> {
  return openCommentsView(await ctx.services.comments.openOnPlan(ctx.principal.orgId, planId, COMMENT_LIMITS.forAssistant + 1));
}
