/**
 * The plan step cycle (rows P and M): what an executing agent does for every
 * step of a research plan — `get_next_step`, then `submit_step_result` for the
 * step it got (with the claimId it got) — as MCP `tools/call` requests over
 * HTTP with the OAuth token and 2025-era headers, like row B.
 *
 * The request bodies and the checks of every response live here, so the
 * parent's verification (before any load) and the load generator
 * (bench/load.mjs, cycle mode) build and judge requests the same way. Every
 * response is parsed in full: the submit needs the stepId and claimId of the
 * get_next_step answer, and a response only counts if it is a JSON-RPC result
 * that is a successful tool result (no `isError`) with the expected fields.
 */
import { MCP_HEADERS, parseRpc, rpcBody } from "./cases.mjs";

/** The step execution report of test/support/plans.ts (`REPORT`): all five fields, empty arrays. */
export const STEP_REPORT = { thinking: "Looked at the sources", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

const STEP_TYPES = ["search", "extract", "analyze", "critique", "synthesize"];

/** Default steps per plan: a plan of realistic size; `--plan-steps` (1–60, the engine's limit) changes it. */
export const DEFAULT_PLAN_STEPS = 12;
export const MAX_PLAN_STEPS = 60;

/** `create_research_plan` arguments for a sequential plan of `planSteps` steps (no parallel groups, no branching). */
export function planArguments(planSteps) {
  return {
    name: "[Scan] Benchmark plan",
    researchQuestion: "How fast does a research plan's step cycle run?",
    steps: Array.from({ length: planSteps }, (_, i) => {
      const stepType = i === planSteps - 1 && planSteps > 1 ? "synthesize" : STEP_TYPES[i % (STEP_TYPES.length - 1)];
      return { stepType, instructions: `Do step ${i + 1} (${stepType}) of the benchmark plan` };
    }),
    planDesignRationale: "Sequential steps, one worker: the benchmark's step cycle",
  };
}

const TERMINAL_PLAN_STATUSES = new Set(["completed", "failed", "cancelled"]);

export const bodies = {
  create: (planSteps) => rpcBody("tools/call", { name: "create_research_plan", arguments: planArguments(planSteps) }),
  next: (planId) => rpcBody("tools/call", { name: "get_next_step", arguments: { planId } }),
  submit: (planId, stepId, claimId, stepOrder) =>
    rpcBody("tools/call", {
      name: "submit_step_result",
      arguments: {
        planId,
        stepId,
        claimId,
        result: { findings: [`finding of step ${stepOrder}`] },
        confidence: 0.8,
        stepExecutionReport: STEP_REPORT,
      },
    }),
};

/** Thrown by the checks: a response that must not be counted as a successful call. */
export class BadResponse extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind; // "non2xx" or "bad", as load.mjs counts failures
  }
}

/** The structured content of a successful tool result, or a BadResponse. */
function toolResult(tool, status, contentType, text) {
  if (status < 200 || status > 299) throw new BadResponse("non2xx", `${tool}: HTTP ${status} ${text.slice(0, 400)}`);
  let message;
  try {
    message = parseRpc(contentType, text);
  } catch (error) {
    throw new BadResponse("bad", `${tool}: unparsable response (${error.message}): ${text.slice(0, 400)}`);
  }
  if (message.error) throw new BadResponse("bad", `${tool}: JSON-RPC error ${message.error.code} ${message.error.message}`);
  if (message.result?.isError) throw new BadResponse("bad", `${tool}: tool error ${message.result.content?.[0]?.text?.slice(0, 400)}`);
  const content = message.result?.structuredContent;
  if (!content || typeof content !== "object") throw new BadResponse("bad", `${tool}: no structuredContent: ${text.slice(0, 400)}`);
  return content;
}

export const checks = {
  /** → planId of the new plan with all its steps pending. */
  create(status, contentType, text, planSteps) {
    const content = toolResult("create_research_plan", status, contentType, text);
    // An acknowledgement names what was created (the plan and its steps), not the status the caller knows.
    if (typeof content.planId !== "string" || content.totalSteps !== planSteps || content.steps?.length !== planSteps) {
      throw new BadResponse("bad", `create_research_plan: unexpected result ${JSON.stringify(content).slice(0, 400)}`);
    }
    return content.planId;
  },
  /** → { status: "step", stepId, claimId, stepOrder } or { status } for waiting / plan_complete / awaiting_review / plan_failed. */
  next(status, contentType, text) {
    const content = toolResult("get_next_step", status, contentType, text);
    if (content.status !== "step") return { status: content.status };
    if (typeof content.claimId !== "string" || typeof content.step?.stepId !== "string") {
      throw new BadResponse("bad", `get_next_step: a step without stepId/claimId: ${JSON.stringify(content).slice(0, 400)}`);
    }
    return { status: "step", stepId: content.step.stepId, claimId: content.claimId, stepOrder: content.step.stepOrder, resumed: content.resumed === true };
  },
  /** → { planDone }: the step is completed (a first submission, not a replay); planDone when the plan reached a terminal status. */
  submit(status, contentType, text, stepId) {
    const content = toolResult("submit_step_result", status, contentType, text);
    if (content.stepId !== stepId || content.status !== "completed" || content.replayed !== false) {
      throw new BadResponse("bad", `submit_step_result: unexpected result ${JSON.stringify(content).slice(0, 400)}`);
    }
    return { planDone: TERMINAL_PLAN_STATUSES.has(content.planStatus), planStatus: content.planStatus };
  },
};

/**
 * Before any load (the parent, over fetch): create one plan and run it to the
 * end with the same bodies and checks the load generator uses — every step
 * handed out in order, every submission taken, the last one completing the
 * plan, and one more get_next_step answering plan_complete.
 */
export async function verifyCycle(publicUrl, accessToken, planSteps) {
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${accessToken}` };
  const post = async (body) => {
    const response = await fetch(`${publicUrl}/mcp`, { method: "POST", headers, body });
    return [response.status, response.headers.get("content-type"), await response.text()];
  };
  const planId = checks.create(...(await post(bodies.create(planSteps))), planSteps);
  const bytes = { next: 0, submit: 0 };
  for (let order = 1; order <= planSteps; order++) {
    const nextResponse = await post(bodies.next(planId));
    bytes.next = Buffer.byteLength(nextResponse[2]);
    const next = checks.next(...nextResponse);
    if (next.status !== "step" || next.stepOrder !== order || next.resumed) {
      throw new Error(`plan cycle is not measurable: step ${order} of ${planSteps}: get_next_step answered ${JSON.stringify(next)}`);
    }
    const submitResponse = await post(bodies.submit(planId, next.stepId, next.claimId, next.stepOrder));
    bytes.submit = Buffer.byteLength(submitResponse[2]);
    const submitted = checks.submit(...submitResponse, next.stepId);
    if (submitted.planDone !== (order === planSteps)) {
      throw new Error(`plan cycle is not measurable: after step ${order} of ${planSteps} the plan is ${submitted.planStatus}`);
    }
  }
  const lastResponse = await post(bodies.next(planId));
  const last = checks.next(...lastResponse);
  if (last.status !== "plan_complete") throw new Error(`plan cycle is not measurable: a finished plan answered ${JSON.stringify(last)}`);
  return { planId, contentType: lastResponse[1], bytes };
}

/** The cycle rows. P runs at the table's concurrencies; M at its own (`--plans-conc`), to compare few plans with many. */
export function cycleCases({ accessToken, planSteps }) {
  const common = {
    target: "cairn",
    mode: "cycle",
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, authorization: `Bearer ${accessToken}` },
    cycle: { planSteps },
  };
  return [
    {
      id: "P",
      label: "MCP plan step cycle (get_next_step → submit_step_result), OAuth token, per call; each connection its own plans",
      ...common,
    },
    {
      id: "M",
      label: "as P: N plans at once, one per connection (N = conc), per call",
      ...common,
      ownConcurrencies: true,
    },
  ];
}
