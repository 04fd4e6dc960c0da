import { CairnError } from "../domain/errors";
import { ID_PATTERN } from "../domain/ids";
import { COMMENT_LIMITS, type CommentTarget } from "../domain/research/comments";
import type { Scope } from "../domain/scopes";
import { createComment, listComments, resolveComment } from "../platform/comments";
import { answering, jsonBody, memberGate, type OwnRoute } from "./route-gates";

/**
 * People's comments on a deliverable or a step's result, for the org's members:
 *   POST  /outputs/{outputId}/comments                      {body, anchor?: {heading?, quote?}, replyTo?} → 201 the comment
 *   GET   /outputs/{outputId}/comments                      → {comments}: every comment, oldest first
 *   PATCH /outputs/{outputId}/comments/{commentId}          {resolved: true | false} → the comment, its thread resolved or open
 * and the same under /plans/{planId}/steps/{stepId}/comments. Not MCP tools: comments are people's words to the
 * assistant, which reads them (untrusted) in get_research_output and get_research_context and answers them with a new
 * deliverable version (store_research_output's answersComments).
 */

const OUTPUT_ROUTE = /^\/outputs\/([^/]+)\/comments(?:\/([^/]+))?$/;
const STEP_ROUTE = /^\/plans\/([^/]+)\/steps\/([^/]+)\/comments(?:\/([^/]+))?$/;
/** A body of COMMENT_LIMITS.bodyChars characters, escaped, with an anchor: well under this. */
const BODY_LIMIT = 64 * 1024;

function idOf(raw: string, what: string): string {
  const id = decodeURIComponent(raw);
  // Ids are plain ([a-z0-9_]); anything else names nothing here, as an id of another org does.
  if (!ID_PATTERN.test(id)) throw new CairnError("not_found", `No ${what} with id "${id.slice(0, 80)}" exists.`);
  return id;
}

export const commentsRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const path = relativePath.replace(/\/$/, "");
  const onOutput = OUTPUT_ROUTE.exec(path);
  const onStep = onOutput ? null : STEP_ROUTE.exec(path);
  if (!onOutput && !onStep) return null;
  const rawCommentId = onOutput ? onOutput[2] : onStep?.[3];
  const allow = rawCommentId === undefined ? ["GET", "POST"] : ["PATCH"];
  const refused = memberGate(request, allow, ctx, principal, correlationId, (scope) => `${request.method === "GET" ? "Reading" : "Writing"} comments needs the ${scope} scope`);
  if (refused) return refused;
  const actor = { orgId: principal.orgId, userId: principal.userId };
  return answering(correlationId, async () => {
    const target: CommentTarget = onOutput
      ? { kind: "output", outputId: idOf(onOutput[1] ?? "", "research output") }
      : { kind: "step", planId: idOf(onStep?.[1] ?? "", "plan"), stepId: idOf(onStep?.[2] ?? "", "step") };
    if (rawCommentId !== undefined) {
      const commentId = idOf(rawCommentId, "comment");
      return Response.json(await resolveComment(env, actor, target, commentId, await jsonBody(request, BODY_LIMIT)));
    }
    if (request.method === "GET") return Response.json(await listComments(env, principal.orgId, target));
    return Response.json(await createComment(env, actor, target, await jsonBody(request, BODY_LIMIT)), { status: 201 });
  });
};

/** The comment routes in the OpenAPI document. */
export function commentsOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
  const security = (scope: Scope) => ({ security: [{ oauth2: [scope] }, { apiKey: [] }], "x-required-scope": scope, tags: ["comments"] });
  const person = { type: ["object", "null"], properties: { userId: { type: "string" }, email: { type: "string" }, name: { type: "string" } } };
  const anchor = { type: "object", additionalProperties: false, properties: { heading: { type: "string", maxLength: COMMENT_LIMITS.headingChars }, quote: { type: "string", maxLength: COMMENT_LIMITS.quoteChars } } };
  const comment = {
    type: "object",
    properties: {
      commentId: { type: "string" },
      outputId: { type: ["string", "null"] },
      planId: { type: ["string", "null"] },
      stepId: { type: ["string", "null"] },
      replyTo: { type: ["string", "null"], description: "The thread's first comment, for a reply" },
      body: { type: "string", description: "Markdown, as written" },
      anchor: { ...anchor, type: ["object", "null"] },
      author: { ...person, description: "Null once the author is no longer a member" },
      createdAt: { type: "string", format: "date-time" },
      resolved: { type: "boolean" },
      resolvedAt: { type: ["string", "null"], format: "date-time" },
      resolvedBy: person,
      answeredBy: { type: ["object", "null"], properties: { outputId: { type: "string" }, version: { type: "integer" } }, description: "The deliverable version that answered the thread" },
    },
  };
  const json = (schema: unknown) => ({ "application/json": { schema } });
  const errors = { "401": { description: "Missing, expired or revoked credential" }, "404": problem("No such deliverable, plan, step or comment (or not in your organization)") };
  const create = {
    summary: "Comment (or reply)",
    description: `A member's comment, Markdown of at most ${COMMENT_LIMITS.bodyChars} characters and ${COMMENT_LIMITS.bodyLines} lines, optionally anchored to a heading or a quoted passage. replyTo (a comment on the same target) joins its thread. A member mentioned by e-mail is notified; comment.created is sent to webhooks. At most ${COMMENT_LIMITS.perTarget} comments a target.`,
    ...security("research:write"),
    requestBody: {
      required: true,
      content: json({
        type: "object",
        additionalProperties: false,
        required: ["body"],
        properties: { body: { type: "string", maxLength: COMMENT_LIMITS.bodyChars }, anchor, replyTo: { type: "string" } },
      }),
    },
    responses: {
      "201": { description: "The comment", content: json(comment) },
      "400": problem("Empty, too long or too deeply nested body, an anchor on a reply, or an unknown field"),
      "409": problem(`The target has ${COMMENT_LIMITS.perTarget} comments already`),
      ...errors,
    },
  };
  const list = { summary: "Every comment, oldest first", ...security("research:read"), responses: { "200": { description: "The comments", content: json({ type: "object", properties: { comments: { type: "array", items: comment } } }) }, ...errors } };
  const resolve = {
    summary: "Resolve (or reopen) a comment's thread",
    ...security("research:write"),
    requestBody: { required: true, content: json({ type: "object", additionalProperties: false, required: ["resolved"], properties: { resolved: { type: "boolean" } } }) },
    responses: { "200": { description: "The comment", content: json(comment) }, "400": problem("resolved is not true or false"), ...errors },
  };
  const output = [param("outputId")];
  const step = [param("planId"), param("stepId")];
  return {
    [`${base}/outputs/{outputId}/comments`]: { post: { operationId: "create_output_comment", parameters: output, ...create }, get: { operationId: "list_output_comments", parameters: output, ...list } },
    [`${base}/outputs/{outputId}/comments/{commentId}`]: { patch: { operationId: "resolve_output_comment", parameters: [...output, param("commentId")], ...resolve } },
    [`${base}/plans/{planId}/steps/{stepId}/comments`]: { post: { operationId: "create_step_comment", parameters: step, ...create }, get: { operationId: "list_step_comments", parameters: step, ...list } },
    [`${base}/plans/{planId}/steps/{stepId}/comments/{commentId}`]: { patch: { operationId: "resolve_step_comment", parameters: [...step, param("commentId")], ...resolve } },
  };
}
