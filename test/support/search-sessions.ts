import { env } from "cloudflare:workers";
import type { Principal } from "../../src/domain/principal";
import type { Services } from "../../src/domain/ports";
import { invoke } from "../../src/operations/invoke";
import type { AnyOperation, OperationContext } from "../../src/operations/operation";
import { requestRuntime } from "../../src/platform/runtime";
import { callTool } from "./worker";

export const GOAL = "Which vector database fits on-device search for mobile apps?";

export const sessionStub = (orgId: string, sessionId: string) => env.SEARCH_SESSION.getByName(`${orgId}:${sessionId}`);

/** Records a step through MCP; returns the tool result (errors included). */
export const step = (key: string, args: Record<string, unknown>) =>
  callTool(key, "sequential_search", { searchStep: `Step ${String(args.stepNumber)} findings`, nextStepNeeded: true, ...args });

/** Starts a session through MCP and returns its id. */
export async function startSession(key: string, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await step(key, { stepNumber: 1, researchGoal: GOAL, ...extra });
  if (result.isError) throw new Error(`sequential_search failed: ${JSON.stringify(result.body)}`);
  return String(result.body.sessionId);
}

export const errorOf = (result: { body: Record<string, unknown> }) => result.body.error as { code: string; message: string; issues?: { path: string }[] };

/**
 * The real operation context of a caller, with some services replaced: settings
 * (limits) or a search provider whose HTTP endpoint is mocked.
 */
export async function contextWith(orgId: string, userId: string, overrides: Partial<Services>): Promise<OperationContext> {
  const principal: Principal = { orgId, userId, role: "admin", scopes: ["research:read", "research:write"] };
  const base = await requestRuntime(env as never, { waitUntil() {} } as never, principal).contextFor(crypto.randomUUID());
  return { ...base, services: { ...base.services, ...overrides } };
}

/** Runs an operation exactly as the faces do (scope, validation, handler), in a given context. */
export async function run(operation: AnyOperation, input: unknown, ctx: OperationContext): Promise<Record<string, unknown>> {
  const result = await invoke(operation, input, ctx, "mcp", () => {});
  if (!result.ok) return { error: { code: result.error.code, message: result.error.message } };
  return result.value as Record<string, unknown>;
}
