import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  inputRequired,
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";

/** The key of Cairn's one input request: the approval page a person opens. */
export const APPROVAL_INPUT_KEY = "approve_plan";

/** The approval page a tool result points at: get_next_step's approvalUrl, or submit_review's refusal (error details url). */
function approvalUrlIn(result: CallToolResult): string | undefined {
  const structured = result.structuredContent as { approvalUrl?: unknown } | undefined;
  if (typeof structured?.approvalUrl === "string") return structured.approvalUrl;
  if (!result.isError) return undefined;
  const text = result.content?.[0];
  if (text?.type !== "text") return undefined;
  try {
    const body = JSON.parse(text.text) as { error?: { code?: unknown; url?: unknown } };
    return body.error?.code === "forbidden" && typeof body.error.url === "string" ? body.error.url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A call that met a plan waiting for a person's approval asks the person directly, where the client can:
 * a URL-mode elicitation the client opens in the person's browser, on the dashboard's approval page. Only on
 * 2026-07-28, whose requests carry the client's capabilities and whose `input_required` result carries the
 * request: the 2025 lane is stateless, so it neither knows what a client declared at `initialize` nor has a
 * channel for a server-to-client `elicitation/create`; there the result's link is what the person gets.
 * A retried call (the client answered the elicitation) gets the plain result: the person was asked once.
 */
export function approvalElicitation(result: CallToolResult, ctx: ServerContext): InputRequiredResult | undefined {
  const url = approvalUrlIn(result);
  if (!url) return undefined;
  // The envelope is keyed by the reserved `_meta` names; the SDK types it opaquely.
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (!(capabilities?.elicitation as { url?: unknown } | undefined)?.url) return undefined;
  const answer = ctx.mcpReq.inputResponses?.[APPROVAL_INPUT_KEY];
  if (answer !== undefined) {
    // The answer to an elicitation is an ElicitResult (action accept, decline or cancel); anything else is not an
    // answer, and taking it as one would end the asking on a malformed retry.
    if (!isSpecType.ElicitResult(answer)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid params: inputResponses.${APPROVAL_INPUT_KEY} is not an elicitation result: it needs action "accept", "decline" or "cancel" (and content, if any, an object of strings, numbers, booleans or string lists).`,
      );
    }
    return undefined;
  }
  return inputRequired({
    inputRequests: {
      [APPROVAL_INPUT_KEY]: inputRequired.elicitUrl({
        message: "A research plan waits for your approval before it starts. Open Cairn to review and approve it (you approve as yourself, signed in).",
        url,
      }),
    },
  });
}
