import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import type { Principal } from "../domain/principal";
import { CairnError, isCairnError } from "../domain/errors";
import { hasScope, type Scope } from "../domain/scopes";
import { SKILL_LIMITS } from "../domain/skills";
import { listPrompts, renderNamedPrompt, SKILLS } from "../mcp/prompts";
import { insufficientScopeResponse, problemResponse } from "./problem";

/** The prompts' REST paths, relative to the API base. */
export const PROMPTS_PATH = "/prompts";
export const PROMPTS_SCOPE: Scope = "research:read";

const ROUTE = /^\/prompts(?:\/([^/]+))?\/?$/;

const json = (value: unknown) => new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });

/**
 * `GET /prompts` and `GET /prompts/{name}?topic=…`: the skills as prompts for clients without MCP
 * prompts (ChatGPT actions, scripts). Same credential and scope rules as every other route.
 * Returns `null` when the path is not a prompts path, so the caller tries the operations.
 */
export function promptsRoute(
  request: Request,
  relativePath: string,
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
): Response | null {
  const match = ROUTE.exec(relativePath);
  if (!match) return null;
  if (request.method !== "GET") {
    const response = problemResponse(new CairnError("validation", `${request.method} is not allowed here; use GET.`), correlationId);
    return new Response(response.body, { status: 405, headers: { ...Object.fromEntries(response.headers), allow: "GET" } });
  }
  if (!hasScope(principal.scopes, PROMPTS_SCOPE)) return insufficientScopeResponse(ctx.auth, [PROMPTS_SCOPE], `Prompts need the ${PROMPTS_SCOPE} scope`, correlationId);
  const encoded = match[1];
  if (encoded === undefined) return json({ prompts: listPrompts() });
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    name = encoded;
  }
  const args = Object.fromEntries(new URL(request.url).searchParams);
  try {
    const prompt = renderNamedPrompt(name, args);
    if (!prompt) {
      const known = SKILLS.map((skill) => skill.name).join(", ");
      return problemResponse(new CairnError("not_found", `No prompt named "${name.slice(0, 64)}". Prompts: ${known}.`), correlationId);
    }
    return json(prompt);
  } catch (error) {
    if (isCairnError(error)) return problemResponse(error, correlationId);
    throw error;
  }
}

const PROMPT_ARGUMENT = {
  type: "object",
  required: ["name", "description", "required"],
  properties: { name: { type: "string" }, description: { type: "string" }, required: { type: "boolean" } },
};

const PROMPT_LISTING = {
  type: "object",
  required: ["name", "title", "description", "arguments"],
  properties: {
    name: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    arguments: { type: "array", items: PROMPT_ARGUMENT },
  },
};

/** The two prompt routes for the OpenAPI document (`problem` is the document's problem-details response). */
export function promptsOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const common = {
    security: [{ oauth2: [PROMPTS_SCOPE] }, { apiKey: [] }],
    "x-required-scope": PROMPTS_SCOPE,
  };
  const errors = {
    "401": { description: "Missing, expired or revoked credential" },
    "403": problem("The credential lacks the research:read scope"),
  };
  const names = SKILLS.map((skill) => skill.name);
  return {
    [`${base}${PROMPTS_PATH}`]: {
      get: {
        operationId: "list_prompts",
        summary: "List prompts",
        description: "The research skills as prompts (the same texts MCP prompts/list serves).",
        ...common,
        responses: {
          "200": {
            description: "Success",
            content: {
              "application/json": { schema: { type: "object", required: ["prompts"], properties: { prompts: { type: "array", items: PROMPT_LISTING } } } },
            },
          },
          ...errors,
        },
      },
    },
    [`${base}${PROMPTS_PATH}/{name}`]: {
      get: {
        operationId: "get_prompt",
        summary: "Get prompt",
        description: "A skill's instructions with the topic (and plan) filled in, as MCP prompts/get renders them.",
        ...common,
        parameters: [
          { name: "name", in: "path", required: true, schema: { type: "string", enum: names } },
          { name: "topic", in: "query", required: false, schema: { type: "string", maxLength: SKILL_LIMITS.topicChars } },
          { name: "planId", in: "query", required: false, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" } },
        ],
        responses: {
          "200": {
            description: "Success",
            content: {
              "application/json": {
                schema: { ...PROMPT_LISTING, required: [...PROMPT_LISTING.required, "text"], properties: { ...PROMPT_LISTING.properties, text: { type: "string" } } },
              },
            },
          },
          "400": problem("An argument is not valid (or not an argument of this prompt)"),
          ...errors,
          "404": problem("No prompt of that name"),
        },
      },
    },
  };
}
