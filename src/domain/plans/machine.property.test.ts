import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CairnError, type ErrorCode } from "../errors";
import {
  cancelPlan,
  createPlan,
  type Modification,
  markStalled,
  modifyPlan,
  type NewId,
  type NextStepOutcome,
  nextStep,
  type PlanEvent,
  type PlanModification,
  requestReview,
  type Submission,
  submitResult,
  submitReview,
} from "./machine";
import { LIMITS, type NewStep, type PlanState, pendingPlanReview, STEP_TYPES, type Step } from "./model";
import { derivePlanStatus, derivePlanStatusWithReviews, progressOf, stallDeadline } from "./status";

/**
 * Random plans driven by random command sequences. Each command's outcome is
 * predicted from the state it meets (success, or which error code), and after
 * every command the plan's invariants must hold.
 */

const MINUTE = 60_000;
const T0 = 1_700_000_000_000;
const WORKERS = ["wA", "wB", "wC"];
const actor = { userId: "usr_1", clientId: null };
const report = { thinking: "", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

// ---------------------------------------------------------------- generators

const stepTypeArb = fc.constantFrom(...STEP_TYPES);
const rarely = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

const stepSpecArb = fc.record({
  stepType: stepTypeArb,
  critical: rarely,
  stallThresholdMinutes: fc.option(fc.integer({ min: 5, max: 60 }), { freq: 3 }),
});

/** Segments of 1–3 steps; a segment of two or more may be a parallel group. At most 12 steps. */
const stepsArb = fc
  .array(fc.record({ parallel: fc.boolean(), specs: fc.array(stepSpecArb, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 6 })
  .map((segments) =>
    segments
      .flatMap((segment, i) =>
        segment.specs.map((spec): NewStep => ({ ...spec, instructions: "do it", parallelGroup: segment.parallel && segment.specs.length > 1 ? `g${i}` : null })),
      )
      .slice(0, 12),
  );

const planArb = stepsArb.chain((steps) =>
  fc.record({
    steps: fc.constant(steps),
    conditions: fc.array(
      fc.record({
        afterStepOrder: fc.integer({ min: 1, max: steps.length }),
        confidenceBelow: fc.constantFrom(0.3, 0.5, 0.7),
        insertSteps: fc.array(fc.record({ stepType: stepTypeArb, instructions: fc.constant("follow up") }), { minLength: 1, maxLength: 2 }),
        rationale: fc.constant("quality gate"),
      }),
      { maxLength: 3 },
    ),
    approval: fc.constantFrom("required" as const, "optional" as const, undefined),
    maxSteps: fc.option(fc.integer({ min: 1, max: 8 }), { freq: 2 }),
  }),
);

const dtArb = fc.integer({ min: 0, max: 25 }); // minutes between commands: enough to reach every stall threshold
const pickArb = fc.nat({ max: 1000 });
const MODIFY_ACTIONS = ["add", "remove", "reorder", "update", "fail", "skip"] as const;

const commandArb = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant("next" as const), worker: fc.nat({ max: 2 }), dt: dtArb }) },
  { weight: 10, arbitrary: fc.record({ kind: fc.constant("submit" as const), pick: pickArb, confidence: fc.constantFrom(0.1, 0.4, 0.6, 0.9), dt: dtArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("submitStale" as const), pick: pickArb, dt: dtArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("resubmit" as const), pick: pickArb, sameHash: fc.boolean(), dt: dtArb }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("modify" as const), action: fc.constantFrom(...MODIFY_ACTIONS), valid: fc.boolean(), pick: pickArb, extra: pickArb, dt: dtArb }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("requestReview" as const), pick: pickArb, rightClaim: fc.boolean(), dt: dtArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("submitReview" as const),
      pick: pickArb,
      decision: fc.constantFrom("approve" as const, "revise" as const, "reject" as const),
      withFeedback: fc.boolean(),
      followUps: fc.nat({ max: 2 }),
      dt: dtArb,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("answerPlanReview" as const),
      pick: pickArb,
      decision: fc.constantFrom("approve" as const, "revise" as const, "reject" as const),
      withFeedback: fc.boolean(),
      raise: fc.boolean(),
      /** A person (the dashboard, or plans:approve) or the assistant. */
      asPerson: fc.boolean(),
      dt: dtArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("stall" as const), dt: dtArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), dt: dtArb }) },
);
type Command = typeof commandArb extends fc.Arbitrary<infer C> ? C : never;
type GeneratedPlan = typeof planArb extends fc.Arbitrary<infer P> ? P : never;

// ---------------------------------------------------------------- the world the commands run in

interface World {
  state: PlanState;
  now: number;
  newId: NewId;
  counter: number;
  /** Every claim ever handed out, current or stale. */
  handed: { stepId: string; claimId: string }[];
  /** Which workers each claim was handed to. */
  holders: Map<string, Set<string>>;
  accepted: Submission[];
  /** conditionId → the step the condition was written after. */
  gateStep: Map<string, string>;
  firedGates: Set<string>;
}

interface Result {
  state: PlanState;
  events: PlanEvent[];
  modifications: PlanModification[];
  outcome?: NextStepOutcome;
  replayed?: boolean;
}

type Expected = ErrorCode | "ok";

/** One command, resolved against the current state: what to call and what it must do. */
interface Call {
  run: () => Result;
  expected: Expected;
  label: string;
  worker?: string;
}

const find = (state: PlanState, stepId: string) => state.steps.find((s) => s.stepId === stepId);
const pickFrom = <T>(items: readonly T[], pick: number): T | undefined => items[pick % Math.max(items.length, 1)];
const isDead = (state: PlanState) => state.plan.status === "failed" || state.plan.status === "cancelled";
const isTerminalPlan = (state: PlanState) => isDead(state) || state.plan.status === "completed";
const isOpen = (step: Step) => step.status === "pending" || step.status === "in_progress" || step.status === "awaiting_input";

/** Every group's steps stand together: a group seen again must continue the run before it. */
const contiguous = (groups: (string | null)[]) => groups.every((g, i) => g === null || groups.indexOf(g) === i || groups[i - 1] === g);

/** seed 004, written out independently of status.ts. */
const expectedProgress = (steps: Step[]) =>
  steps.length === 0 ? 0 : Math.round((steps.filter((s) => s.status === "completed" || s.status === "skipped").length / steps.length) * 100);

function startWorld(plan: GeneratedPlan): World {
  let n = 0;
  const newId: NewId = (prefix) => `${prefix}_${++n}`;
  const input = {
    planId: "pln_1",
    orgId: "org_1",
    name: "[Deep] Property",
    researchQuestion: "q",
    steps: plan.steps,
    branchingConditions: plan.conditions,
    planDesignRationale: "r",
    outputFormattingNotes: null,
    sessionId: null,
    executionId: null,
    ...(plan.approval ? { approval: plan.approval } : {}),
    budget: plan.maxSteps === null ? null : { maxSteps: plan.maxSteps },
  };
  const { state } = createPlan(input, actor, T0, newId);
  const gateStep = new Map(state.plan.branchingConditions.map((c) => [c.conditionId, state.steps[c.afterStepOrder - 1]?.stepId ?? "?"]));
  return { state, now: T0, newId, counter: 0, handed: [], holders: new Map(), accepted: [], gateStep, firedGates: new Set() };
}

// ---------------------------------------------------------------- expected outcomes, from the rules

function submitExpectation(state: PlanState, sub: Submission): Expected {
  const step = find(state, sub.stepId);
  if (!step) return "not_found";
  if (step.status === "completed") return step.resultHash === sub.resultHash ? "ok" : "conflict";
  if (isDead(state) || step.status !== "in_progress") return "invalid_transition";
  if (step.claimId !== sub.claimId) return "conflict";
  const inserted = state.plan.branchingConditions
    .filter((c) => c.firedAt === null && c.afterStepOrder === step.stepOrder && sub.confidence < c.confidenceBelow)
    .reduce((sum, c) => sum + c.insertSteps.length, 0);
  return state.steps.length + inserted > LIMITS.stepsPerPlan ? "validation" : "ok";
}

function modifyExpectation(state: PlanState, modification: Modification, rationale: string): Expected {
  if (isDead(state)) return "invalid_transition";
  if (rationale.trim() === "") return "validation";
  // A plan waiting for its approval changes only through that approval.
  if (state.plan.reviews?.some((r) => r.kind === "approval" && r.decision === null)) return "conflict";
  const groups = state.steps.map((s) => s.parallelGroup);
  switch (modification.action) {
    case "add": {
      const index = modification.afterStepId ? state.steps.findIndex((s) => s.stepId === modification.afterStepId) + 1 : state.steps.length;
      if (index === 0) return "not_found";
      if (state.steps.length + modification.steps.length > LIMITS.stepsPerPlan) return "validation";
      const added = modification.steps.map((s) => s.parallelGroup ?? null);
      if (!contiguous([...groups.slice(0, index), ...added, ...groups.slice(index)])) return "validation";
      // Steps added to a plan that needed an approval need a new one, and a waiting budget review is answered first.
      const reviews = state.plan.reviews ?? [];
      return reviews.some((r) => r.kind === "approval") && reviews.some((r) => r.kind === "budget" && r.decision === null) ? "invalid_transition" : "ok";
    }
    case "reorder": {
      const pending = state.steps.filter((s) => s.status === "pending").map((s) => s.stepId);
      const ids = modification.stepIds;
      const permutation = ids.length === pending.length && new Set(ids).size === ids.length && pending.every((id) => ids.includes(id));
      if (!permutation) return "validation";
      const queue = [...ids];
      const reordered = state.steps.map((s) => (s.status === "pending" ? (find(state, queue.shift() ?? "")?.parallelGroup ?? null) : s.parallelGroup));
      return contiguous(reordered) ? "ok" : "validation";
    }
    case "budget":
      return "ok";
    default: {
      const step = find(state, modification.stepId);
      if (!step) return "not_found";
      const allowed = { remove: ["pending"], update: ["pending", "in_progress"], fail: ["pending", "in_progress", "awaiting_input"], skip: ["pending"] }[modification.action];
      if (!allowed.includes(step.status)) return "invalid_transition";
      if (modification.action === "remove" && state.steps.length === 1) return "invalid_transition";
      return "ok";
    }
  }
}

// ---------------------------------------------------------------- commands → calls

function resolve(world: World, command: Command): Call {
  const { state, now, newId } = world;
  const tag = () => `${++world.counter}`;
  switch (command.kind) {
    case "next": {
      const worker = WORKERS[command.worker] ?? "wA";
      return { run: () => nextStep(state, worker, now, newId), expected: "ok", label: `next ${worker}`, worker };
    }
    case "submit": {
      // The right claim for a step in progress, if any; otherwise whatever the picked step holds.
      const running = state.steps.filter((s) => s.status === "in_progress");
      const step = pickFrom(running.length ? running : state.steps, command.pick) as Step;
      const sub = submissionFor(step.stepId, step.claimId ?? "claim_none", `hash_${tag()}`, command.confidence);
      return { run: () => submitResult(state, sub, now, newId), expected: submitExpectation(state, sub), label: `submit ${step.stepOrder}` };
    }
    case "submitStale": {
      const old = pickFrom(world.handed, command.pick);
      const target = old && command.pick % 4 !== 0 ? old : { stepId: (pickFrom(state.steps, command.pick) as Step).stepId, claimId: "claim_bogus" };
      const sub = submissionFor(target.stepId, target.claimId, `hash_${tag()}`, 0.9);
      return { run: () => submitResult(state, sub, now, newId), expected: submitExpectation(state, sub), label: `submit stale ${target.claimId}` };
    }
    case "resubmit": {
      const earlier = pickFrom(world.accepted, command.pick);
      const sub = earlier ? { ...earlier, resultHash: command.sameHash ? earlier.resultHash : "different" } : submissionFor("step_nope", "claim_x", "h", 0.9);
      return { run: () => submitResult(state, sub, now, newId), expected: submitExpectation(state, sub), label: `resubmit same=${command.sameHash}` };
    }
    case "modify": {
      const modification = modificationFor(state, command, tag);
      const rationale = command.extra % 9 === 0 ? " " : "because";
      return {
        run: () => modifyPlan(state, modification, rationale, now, newId),
        expected: modifyExpectation(state, modification, rationale),
        label: `modify ${JSON.stringify(modification)}`,
      };
    }
    case "requestReview": {
      const running = state.steps.filter((s) => s.status === "in_progress");
      const step = pickFrom(running.length ? running : state.steps, command.pick) as Step;
      const claimId = command.rightClaim ? (step.claimId ?? "claim_none") : "claim_stale";
      const request = { stepId: step.stepId, claimId, presentation: "p", questions: ["q?"] };
      let expected: Expected = "ok";
      if (isTerminalPlan(state) || step.status !== "in_progress") expected = "invalid_transition";
      else if (step.claimId !== claimId) expected = "conflict";
      return { run: () => requestReview(state, request, now), expected, label: `requestReview ${step.stepOrder}` };
    }
    case "submitReview": {
      const waiting = state.steps.filter((s) => s.status === "awaiting_input");
      const step = pickFrom(waiting.length ? waiting : state.steps, command.pick) as Step;
      const followUpSteps = Array.from({ length: command.followUps }, () => ({ stepType: "custom" as const, instructions: "follow up" }));
      const decision = { stepId: step.stepId, decision: command.decision, feedback: command.withFeedback ? "feedback" : null, followUpSteps };
      let expected: Expected = "ok";
      if (isTerminalPlan(state) || step.status !== "awaiting_input") expected = "invalid_transition";
      else if (command.decision !== "approve" && !command.withFeedback) expected = "validation";
      else if (command.decision === "revise" && state.steps.length + Math.max(1, command.followUps) > LIMITS.stepsPerPlan) expected = "validation";
      return { run: () => submitReview(state, decision, actor, now, newId), expected, label: `submitReview ${command.decision} ${step.stepOrder}` };
    }
    case "answerPlanReview": {
      const reviews = state.plan.reviews ?? [];
      const review = pendingPlanReview(state.plan) ?? pickFrom(reviews, command.pick);
      const used = state.plan.usage?.steps ?? 0;
      const decision = {
        stepId: review?.reviewId ?? "review_nope",
        decision: command.decision,
        feedback: command.withFeedback ? "feedback" : null,
        followUpSteps: [],
        ...(command.raise ? { budget: { maxSteps: used + 5 } } : {}),
        authority: { approver: command.asPerson ? ("person" as const) : ("assistant" as const), approvalUrl: "https://cairn.test/dashboard/plans/p" },
        planVersion: state.plan.version,
      };
      let expected: Expected = "ok";
      if (isTerminalPlan(state)) expected = "invalid_transition";
      else if (!review) expected = "not_found";
      else if (review.decision !== null) expected = "invalid_transition";
      // Starting a plan that needs approval, or raising its budget, is a person's decision.
      else if (!command.asPerson && review.kind === "approval" && command.decision !== "reject") expected = "forbidden";
      // A budget stops spending: only a person raises it, on any plan.
      else if (!command.asPerson && review.kind === "budget" && command.decision === "approve") expected = "forbidden";
      else if (review.kind === "budget") {
        if (command.decision === "revise" || (command.decision === "approve" && !command.raise)) expected = "validation";
      } else if (command.decision !== "revise" && command.raise) expected = "validation";
      else if (command.decision !== "approve" && !command.withFeedback) expected = "validation";
      return { run: () => submitReview(state, decision, actor, now, newId), expected, label: `answerPlanReview ${review?.kind} ${command.decision}` };
    }
    case "stall":
      return { run: () => markStalled(state, now), expected: "ok", label: "markStalled" };
    case "cancel": {
      const expected: Expected = state.plan.status === "completed" || state.plan.status === "failed" ? "invalid_transition" : "ok";
      return { run: () => cancelPlan(state, "stop", now), expected, label: "cancel" };
    }
  }
}

const submissionFor = (stepId: string, claimId: string, resultHash: string, confidence: number): Submission => ({
  stepId,
  claimId,
  result: { hash: resultHash },
  resultHash,
  confidence,
  executionReport: report,
  outputFormattingNotes: null,
});

/** A modification aimed at a target that fits the action (`valid`) or at any step, sometimes one that does not exist. */
function modificationFor(state: PlanState, command: Extract<Command, { kind: "modify" }>, tag: () => string): Modification {
  const { action, valid, pick, extra } = command;
  const fits: Record<Modification["action"], (s: Step) => boolean> = {
    add: () => true,
    reorder: () => true,
    budget: () => true,
    remove: (s) => s.status === "pending",
    skip: (s) => s.status === "pending",
    update: (s) => s.status === "pending" || s.status === "in_progress",
    fail: (s) => isOpen(s),
  };
  const candidates = valid ? state.steps.filter(fits[action]) : state.steps;
  const target = !valid && extra % 3 === 0 ? "step_nope" : (pickFrom(candidates.length ? candidates : state.steps, pick) as Step).stepId;
  switch (action) {
    case "add": {
      const anchor = find(state, target);
      const group = [null, anchor?.parallelGroup ?? null, `new_${tag()}`][extra % 3] ?? null;
      const steps = Array.from({ length: 1 + (extra % 2) }, (): NewStep => ({ stepType: "critique", instructions: "added", parallelGroup: group }));
      return valid && pick % 4 === 0 ? { action, steps } : { action, steps, afterStepId: target };
    }
    case "reorder": {
      const pending = state.steps.filter((s) => s.status === "pending").map((s) => s.stepId);
      const k = pick % Math.max(pending.length, 1);
      const rotated = [...pending.slice(k), ...pending.slice(0, k)];
      const shuffled = extra % 2 === 0 ? rotated : rotated.reverse();
      if (valid) return { action, stepIds: shuffled };
      const broken = [shuffled.slice(1), [...shuffled, shuffled[0] ?? target], [...shuffled, target]][extra % 3] ?? [];
      return { action, stepIds: broken };
    }
    case "update":
      return { action, stepId: target, instructions: `updated ${tag()}` };
    case "remove":
      return { action, stepId: target };
    default:
      return { action, stepId: target, reason: "not needed" };
  }
}

// ---------------------------------------------------------------- invariants

function checkInvariants(world: World, prev: PlanState, result: Result, call: Call) {
  const next = result.state;
  const { steps, plan } = next;

  expect(steps.map((s) => s.stepOrder)).toEqual(steps.map((_, i) => i + 1));
  expect(new Set(steps.map((s) => s.stepId)).size).toBe(steps.length);
  expect(contiguous(steps.map((s) => s.parallelGroup))).toBe(true);

  // Claims: only started steps hold one, every started step holds one, and no two steps share one.
  for (const step of steps) {
    if (step.status === "pending") expect(step.claimId).toBeNull();
    if (step.status === "in_progress" || step.status === "awaiting_input") expect(step.claimId).not.toBeNull();
  }
  const claims = steps.flatMap((s) => (s.claimId ? [s.claimId] : []));
  expect(new Set(claims).size).toBe(claims.length);

  // Finished steps stay finished, with the result they finished with; started steps never go back to pending.
  for (const before of prev.steps) {
    const after = find(next, before.stepId);
    if (before.status !== "pending") expect(after, `step ${before.stepId} vanished`).toBeDefined();
    if (!after) continue;
    if (before.status !== "pending") expect(after.status).not.toBe("pending");
    if (!isOpen(before)) {
      expect(after.status).toBe(before.status);
      expect(after.result).toEqual(before.result);
      expect(after.resultHash).toBe(before.resultHash);
    }
  }

  // Plan status.
  if (isDead(prev)) expect(plan.status).toBe(prev.plan.status);
  // Plan reviews (approval, budget) live on the plan: no step is ever one, and the steps' own status ignores them.
  expect(steps.some((s) => s.origin === "budget")).toBe(false);
  expect((plan.reviews ?? []).filter((r) => r.decision === null).length).toBeLessThanOrEqual(1);
  const derived = derivePlanStatusWithReviews(plan, steps);
  if (derived === "awaiting_review" && !steps.some((s) => s.status === "awaiting_input")) expect(derivePlanStatus(steps)).toBe("active");
  if (!["failed", "cancelled", "stalled"].includes(plan.status)) expect(plan.status).toBe(derived);
  if (plan.status === "stalled") {
    expect(plan.stalledAt).not.toBeNull();
    expect(steps.some((s) => s.status === "in_progress")).toBe(true);
  }
  expect(plan.finishedAt !== null).toBe(isTerminalPlan(next));
  if (isDead(next)) expect(plan.failureReason).toBeTruthy();
  if (plan.status === "failed" && !isDead(prev)) {
    // A plan fails through a failed critical step or a review that rejected it.
    const rejectedAtApproval = (plan.reviews ?? []).some((r) => r.kind === "approval" && r.decision === "reject");
    expect(rejectedAtApproval || steps.some((s) => (s.critical && s.status === "failed") || (s.status === "failed" && s.review?.decision === "reject"))).toBe(true);
  }

  // Progress: the seed's formula, and it only goes down when steps were added.
  expect(progressOf(steps)).toBe(expectedProgress(steps));
  if (steps.length <= prev.steps.length) expect(progressOf(steps)).toBeGreaterThanOrEqual(progressOf(prev.steps));

  // Versions: one per modification, numbered on from the previous version.
  expect(plan.version - prev.plan.version).toBe(result.modifications.length);
  expect(result.modifications.map((m) => m.version)).toEqual(result.modifications.map((_, i) => prev.plan.version + i + 1));

  // Events.
  for (const event of result.events) {
    if (event.action === "plan.stalled") expect(prev.plan.status).not.toBe("stalled");
    if (event.action === "plan.branched") {
      const conditionId = String(event.detail.conditionId);
      expect(world.firedGates.has(conditionId), `gate ${conditionId} fired twice`).toBe(false);
      expect(event.stepId, `gate ${conditionId} fired after the wrong step`).toBe(world.gateStep.get(conditionId));
      world.firedGates.add(conditionId);
    }
  }

  if (result.outcome) checkHandout(world, prev, next, result.outcome, call.worker ?? "?");
}

/** nextStep: a step goes to one worker at a time in a parallel group; a taken step changes hands only once stalled. */
function checkHandout(world: World, prev: PlanState, next: PlanState, outcome: NextStepOutcome, worker: string) {
  if (outcome.status !== "step") {
    if (outcome.status === "budget_exhausted" && !pendingPlanReview(prev.plan)) {
      // Reaching the limit opens the budget review on the plan; the steps stay as they were.
      expect(next.steps).toEqual(prev.steps);
      expect(pendingPlanReview(next.plan)?.kind).toBe("budget");
    } else expect(next).toBe(prev);
    if (outcome.status === "plan_failed") expect(isDead(prev)).toBe(true);
    if (outcome.status === "awaiting_review") expect(prev.steps.some((s) => s.status === "awaiting_input") || pendingPlanReview(prev.plan)?.kind === "approval").toBe(true);
    if (outcome.status === "plan_complete") expect(prev.steps.every((s) => !isOpen(s))).toBe(true);
    return;
  }
  const before = find(prev, outcome.step.stepId) as Step;
  const after = find(next, outcome.step.stepId) as Step;
  expect(after).toMatchObject({ status: "in_progress", claimId: outcome.claimId, lastActivityAt: world.now });
  expect(before.status === "pending" || before.status === "in_progress").toBe(true);
  if (outcome.resumed) {
    expect(outcome.claimId).toBe(before.claimId);
    if (before.parallelGroup !== null) expect(before.claimedBy).toBe(worker);
  } else {
    expect(world.handed.some((h) => h.claimId === outcome.claimId)).toBe(false);
    if (before.status === "in_progress") {
      expect(before.parallelGroup, "only group steps are taken over").not.toBeNull();
      expect(stallDeadline(before) ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(world.now);
    }
    expect(after.claimedBy).toBe(worker);
    world.handed.push({ stepId: after.stepId, claimId: outcome.claimId });
  }
  const holders = world.holders.get(outcome.claimId) ?? new Set<string>();
  holders.add(worker);
  world.holders.set(outcome.claimId, holders);
  if (after.parallelGroup !== null) expect(holders.size, `group step ${after.stepId} handed to ${[...holders]}`).toBe(1);
}

// ---------------------------------------------------------------- running

function apply(world: World, command: Command): void {
  world.now += command.dt * MINUTE;
  const prev = world.state;
  const frozen = structuredClone(prev);
  const call = resolve(world, command);
  let result: Result;
  try {
    result = call.run();
  } catch (error) {
    if (!(error instanceof CairnError)) throw error;
    expect(error.code, `${call.label}: ${error.message}`).toBe(call.expected);
    expect(prev, "a refused command must leave the state untouched").toEqual(frozen);
    return;
  }
  expect("ok", `${call.label} succeeded`).toBe(call.expected);
  expect(prev, "commands must not mutate the state they are given").toEqual(frozen);
  checkInvariants(world, prev, result, call);
  if (result.replayed) expect(result.state).toBe(prev);
  if (command.kind === "submit" && !result.replayed) {
    const done = result.state.steps.find((s) => s.status === "completed" && s.resultHash !== null && find(prev, s.stepId)?.resultHash === null);
    if (done?.resultHash) world.accepted.push(submissionFor(done.stepId, done.claimId ?? "", done.resultHash, done.confidence ?? 0));
  }
  world.state = result.state;
}

describe("plan state machine under random command sequences", () => {
  it("keeps its invariants and answers every command as the rules say", () => {
    fc.assert(
      fc.property(planArb, fc.array(commandArb, { minLength: 1, maxLength: 40, size: "max" }), (plan, commands) => {
        const world = startWorld(plan);
        for (const command of commands) apply(world, command);
      }),
      { numRuns: 1000 },
    );
    // A thousand sequences take ~2 s alone and more than the default 5 s on a loaded two-core machine.
  }, 60_000);

  it("drives every plan to completion when workers only pull and submit", () => {
    fc.assert(
      fc.property(planArb, fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 5 }), (plan, workers) => {
        const world = startWorld({ ...plan, approval: undefined, maxSteps: null });
        for (let round = 0; round < 200 && world.state.plan.status !== "completed"; round++) {
          const worker = workers[round % workers.length] ?? 0;
          apply(world, { kind: "next", worker, dt: 1 });
          const mine = world.state.steps.find((s) => s.status === "in_progress" && s.claimedBy === WORKERS[worker]);
          if (mine) apply(world, { kind: "submit", pick: world.state.steps.filter((s) => s.status === "in_progress").indexOf(mine), confidence: 0.9, dt: 1 });
        }
        expect(world.state.plan.status).toBe("completed");
        expect(progressOf(world.state.steps)).toBe(100);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
