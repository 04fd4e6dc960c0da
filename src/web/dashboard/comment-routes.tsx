/** Comments from the dashboard: a person posts, replies to, resolves and reopens them (the rules of src/platform/comments.ts). */
import type { Hono } from "hono";
import { ID_PATTERN } from "../../domain/ids";
import type { CommentTarget } from "../../domain/research/comments";
import { createComment, resolveComment } from "../../platform/comments";
import { type App, type DashContext, notFoundPage } from "./page";

/** The form as the API's body: empty optional fields left out, so the same rules judge both. */
function commentInput(form: FormData): Record<string, unknown> {
  const field = (name: string) => String(form.get(name) ?? "");
  const heading = field("heading").trim();
  const quote = field("quote").trim();
  const replyTo = field("replyTo").trim();
  return {
    body: field("body").replaceAll("\r\n", "\n"),
    ...(heading || quote ? { anchor: { ...(heading ? { heading } : {}), ...(quote ? { quote } : {}) } } : {}),
    ...(replyTo ? { replyTo } : {}),
  };
}

const actorOf = (c: DashContext) => ({ orgId: c.get("session").orgId, userId: c.get("session").userId });

export function registerCommentRoutes(app: Hono<App>): void {
  const routes: { path: string; target: (c: DashContext) => CommentTarget | null; back: (target: CommentTarget) => string }[] = [
    {
      path: "/outputs/:outputId/comments",
      target: (c) => (ID_PATTERN.test(c.req.param("outputId") ?? "") ? { kind: "output", outputId: c.req.param("outputId") ?? "" } : null),
      back: (target) => (target.kind === "output" ? `/dashboard/outputs/${target.outputId}` : ""),
    },
    {
      path: "/plans/:planId/steps/:stepId/comments",
      target: (c) => {
        const planId = c.req.param("planId") ?? "";
        const stepId = c.req.param("stepId") ?? "";
        return ID_PATTERN.test(planId) && ID_PATTERN.test(stepId) ? { kind: "step", planId, stepId } : null;
      },
      back: (target) => (target.kind === "step" ? `/dashboard/plans/${target.planId}` : ""),
    },
  ];
  for (const route of routes) {
    app.post(route.path, async (c) => {
      const target = route.target(c);
      if (!target) return notFoundPage(c);
      const comment = await createComment(c.env, actorOf(c), target, commentInput(c.get("form")));
      return c.redirect(`${route.back(target)}?done=commented#comment-${comment.commentId}`, 303);
    });
    app.post(`${route.path}/:commentId/resolve`, async (c) => {
      const target = route.target(c);
      const commentId = c.req.param("commentId") ?? "";
      if (!target || !ID_PATTERN.test(commentId)) return notFoundPage(c);
      const resolved = String(c.get("form").get("resolved") ?? "") !== "false";
      await resolveComment(c.env, actorOf(c), target, commentId, { resolved });
      return c.redirect(`${route.back(target)}?done=${resolved ? "comment_resolved" : "comment_reopened"}#comment-${commentId}`, 303);
    });
  }
}
