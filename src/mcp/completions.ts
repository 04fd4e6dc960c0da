import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import { COMPLETION_LIMIT, type CompletableKind, completionResult, idPrefix, topicText } from "../domain/completion";
import { hasScope } from "../domain/scopes";
import { promptArgumentsOf } from "../domain/skills";
import { newCorrelationId, type RequestRuntime } from "../platform/runtime";
import { RESOURCE_TEMPLATES } from "./resources";
import { SKILLS } from "./prompts";

/** Which kind of id a prompt argument names. */
const PROMPT_ID_ARGUMENTS: Record<string, CompletableKind> = { planId: "plans" };

/**
 * `completion/complete` for the prompts' arguments (a plan id by prefix, a
 * topic from the org's earlier plans) and the resource templates' variables
 * (`cairn://plans/{planId}` and the others: ids by prefix). Suggestions come
 * only from the caller's org, newest first, at most 20, and only with
 * research:read (what reading the records themselves needs).
 */
export function registerCompletions(server: Server, runtime: RequestRuntime): void {
  server.setRequestHandler("completion/complete", async (request) => {
    const { ref, argument } = request.params;
    let kind: CompletableKind | "topic";
    if (ref.type === "ref/prompt") {
      if (!SKILLS.some((skill) => skill.name === ref.name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${ref.name.slice(0, 64)}`);
      const declared = promptArgumentsOf(ref.name).some((candidate) => candidate.name === argument.name);
      const idKind = PROMPT_ID_ARGUMENTS[argument.name];
      if (!declared || (argument.name !== "topic" && !idKind)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} has no argument ${argument.name.slice(0, 64)} to complete`);
      }
      kind = idKind ?? "topic";
    } else {
      const template = RESOURCE_TEMPLATES.find((candidate) => candidate.uriTemplate === ref.uri);
      if (!template || template.variable !== argument.name) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No resource template ${ref.uri.slice(0, 80)} with a variable ${argument.name.slice(0, 64)}`);
      }
      kind = template.kind;
    }

    const { principal, services } = await runtime.contextFor(newCorrelationId());
    if (!hasScope(principal.scopes, "research:read")) return { completion: { values: [], hasMore: false } };
    let found: string[] = [];
    if (kind === "topic") {
      const text = topicText(argument.value);
      if (text) found = await services.completions.topics(principal.orgId, text, COMPLETION_LIMIT + 1);
    } else {
      const prefix = idPrefix(argument.value);
      if (prefix !== null) found = await services.completions.ids(kind, principal.orgId, prefix, COMPLETION_LIMIT + 1);
    }
    return { completion: completionResult(found) };
  });
}
