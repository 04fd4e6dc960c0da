import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { conflict } from "../../src/domain/errors";
import {
  type CreatePlanInput,
  cancelPlan,
  createPlan,
  type Modification,
  markStalled,
  modifyPlan,
  nextStep,
  type ReviewDecision,
  requestReview,
  type Submission,
  submitResult,
  submitReview,
} from "../../src/domain/plans/machine";
import { isTerminalPlan, type NewStep, STEP_TYPES, type Step } from "../../src/domain/plans/model";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import {
  ACTOR,
  ALARM_ACTOR,
  clock,
  count,
  coverage,
  execute,
  MINUTE,
  PlanModel,
  plain,
  type RealPlan,
  stubOf,
  verify,
} from "../support/plan-model";

/**
 * Model-based test of the plan Durable Object (quality anchors C4, D1, D4): random
 * command sequences run against the real object through its stub and against the
 * pure state machine as the model, on one shared clock. After every command the
 * object (state, results, audit trail, versions, alarm) and the D1 index must be
 * exactly what the model predicts, a refused command must leave everything as it
 * was, and a stall must be recorded once per episode however often the alarm runs.
 *
 * 3 × 334 sequences of up to 15 commands, each on a fresh plan (its own object).
 * The clock: every command carries an explicit, increasing `now`, and `Date.now` is
 * mocked to the same value (the objects share the test isolate), so the alarm handler
 * and the alarm scheduling agree with the model to the millisecond; the clock runs
 * 30 days ahead of the wall clock, so alarms only run when a command runs them.
 * A failure prints the plan and the shrunk command list, plus `{ seed, path }`:
 * pass those to `fc.assert` to replay it.
 */

const WORKERS = ["worker-a", "worker-b", "worker-c"];
const REPORT = { thinking: "looked", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };
const BOGUS_STEP = "step_0000000000000000000000000";
const BOGUS_CLAIM = "claim_0000000000000000000000000";

type Model = PlanModel;
type Real = RealPlan;
type Cmd = fc.AsyncCommand<Model, Real>;

const pickFrom = <T>(items: readonly T[], pick: number): T | undefined => items[pick % Math.max(items.length, 1)];
const hashOf = (result: unknown) => `h:${JSON.stringify(result)}`;
const isDead = (model: Model) => model.state.plan.status === "failed" || model.state.plan.status === "cancelled";

// ---------------------------------------------------------------- commands

class NextCmd implements Cmd {
  constructor(readonly worker: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const workerId = WORKERS[this.worker] ?? "worker-a";
    const done = await execute(m, r, this.toString(), { kind: "next", workerId }, (state, now, newId) => nextStep(state, workerId, now, newId));
    const outcome = done.ok ? done.value.outcome : undefined;
    if (outcome?.status === "step" && !outcome.resumed) m.claims.push({ stepId: m.toModel(outcome.step.stepId), claimId: m.toModel(outcome.claimId) });
  }
  toString = () => `next(${WORKERS[this.worker]})`;
}

class SubmitCmd implements Cmd {
  constructor(readonly p: { pick: number; result: unknown; confidence: number; summary: boolean; report: boolean; twice: boolean }) {}
  check = (m: Readonly<Model>) => m.state.steps.some((s) => s.claimId !== null);
  async run(m: Model, r: Real) {
    const step = pickFrom(
      m.state.steps.filter((s) => s.claimId !== null),
      this.p.pick,
    ) as Step;
    const submission: Submission = {
      stepId: step.stepId,
      claimId: step.claimId ?? "",
      result: this.p.result,
      resultHash: hashOf(this.p.result),
      ...(this.p.summary ? { resultSummary: "summary" } : {}),
      confidence: this.p.confidence,
      executionReport: this.p.report ? REPORT : null,
      outputFormattingNotes: this.p.report ? "as a table" : null,
    };
    const call = (state: Model["state"], now: number, newId: Model["newId"]) => submitResult(state, submission, now, newId);
    const first = await execute(m, r, this.toString(), { kind: "submit", submission }, call);
    if (first.ok && !first.replayed) m.accepted.push(submission);
    if (first.ok && this.p.twice) {
      const again = await execute(m, r, `${this.toString()} again`, { kind: "submit", submission }, call);
      expect(again.ok && again.replayed, "the same submission twice is a replay").toBe(true);
    }
  }
  toString = () => `submit(pick ${this.p.pick}, ${JSON.stringify(this.p.result)}, confidence ${this.p.confidence}${this.p.twice ? ", twice" : ""})`;
}

/** A submission with a claim that is not the step's: made up, or one handed out earlier (taken over, or another step's). */
class StaleSubmitCmd implements Cmd {
  constructor(readonly p: { pick: number; old: number | null }) {}
  check = (m: Readonly<Model>) => !isDead(m as Model) && m.state.steps.some((s) => s.status === "in_progress" && s.claimId !== null);
  async run(m: Model, r: Real) {
    const step = pickFrom(
      m.state.steps.filter((s) => s.status === "in_progress" && s.claimId !== null),
      this.p.pick,
    ) as Step;
    const old = m.claims.filter((c) => c.claimId !== step.claimId);
    const claimId = this.p.old === null || old.length === 0 ? BOGUS_CLAIM : (pickFrom(old, this.p.old)?.claimId ?? BOGUS_CLAIM);
    const submission: Submission = { stepId: step.stepId, claimId, result: { stale: true }, resultHash: hashOf({ stale: true }), confidence: 0.5, executionReport: null, outputFormattingNotes: null };
    const done = await execute(m, r, this.toString(), { kind: "submit", submission }, (state, now, newId) => submitResult(state, submission, now, newId));
    expect(done.ok ? "ok" : done.code, "a stale claim is a conflict").toBe("conflict");
  }
  toString = () => `staleSubmit(pick ${this.p.pick}, ${this.p.old === null ? "made-up claim" : `old claim ${this.p.old}`})`;
}

/** An accepted submission again: the same one is a replay, a different result a conflict. */
class ResubmitCmd implements Cmd {
  constructor(readonly p: { pick: number; same: boolean }) {}
  check = (m: Readonly<Model>) => m.accepted.length > 0;
  async run(m: Model, r: Real) {
    const earlier = pickFrom(m.accepted, this.p.pick) as Submission;
    const submission = this.p.same ? earlier : { ...earlier, result: { other: true }, resultHash: hashOf({ other: true }) };
    const done = await execute(m, r, this.toString(), { kind: "submit", submission }, (state, now, newId) => submitResult(state, submission, now, newId));
    expect(done.ok ? (done.replayed ? "replayed" : "applied") : done.code).toBe(this.p.same ? "replayed" : "conflict");
  }
  toString = () => `resubmit(pick ${this.p.pick}, ${this.p.same ? "same" : "different result"})`;
}

type ModifyParams = {
  action: Exclude<Modification["action"], "budget">;
  target: "pick" | "bogus" | "none";
  pick: number;
  order: number[];
  reorder: "valid" | "drop" | "duplicate" | "foreign" | "empty";
  steps: NewStep[];
  group: "keep" | "target" | "new";
  blankRationale: boolean;
};

class ModifyCmd implements Cmd {
  constructor(readonly p: ModifyParams) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const modification = this.build(m);
    const rationale = this.p.blankRationale ? "  " : `model change ${m.commands + 1}`;
    await execute(m, r, `${this.toString()} = ${JSON.stringify(modification)}`, { kind: "modify", modification, rationale }, (state, now, newId) =>
      modifyPlan(state, modification, rationale, now, newId),
    );
  }
  build(m: Model): Modification {
    const { steps } = m.state;
    const target = this.p.target === "bogus" ? BOGUS_STEP : ((pickFrom(steps, this.p.pick) as Step).stepId as string);
    switch (this.p.action) {
      case "add": {
        const anchor = pickFrom(steps, this.p.pick) as Step;
        const group = this.p.group === "target" ? anchor.parallelGroup : this.p.group === "new" ? "g-added" : undefined;
        const added = this.p.steps.map((s) => (group === undefined ? s : { ...s, parallelGroup: group }));
        return this.p.target === "none" ? { action: "add", steps: added } : { action: "add", steps: added, afterStepId: target };
      }
      case "reorder": {
        const pending = steps.filter((s) => s.status === "pending").map((s) => s.stepId);
        const shuffled = pending.map((id, i) => ({ id, key: this.p.order[i] ?? i })).sort((a, b) => a.key - b.key || a.id.localeCompare(b.id)).map((e) => e.id);
        const other = steps.find((s) => s.status !== "pending")?.stepId ?? BOGUS_STEP;
        const stepIds = {
          valid: shuffled,
          drop: shuffled.slice(1),
          duplicate: shuffled.length ? [...shuffled.slice(0, -1), shuffled[0] as string] : [BOGUS_STEP],
          foreign: [...shuffled, other],
          empty: [],
        }[this.p.reorder];
        return { action: "reorder", stepIds };
      }
      case "remove":
        return { action: "remove", stepId: target };
      case "update":
        return { action: "update", stepId: target, instructions: `updated at ${m.commands + 1}` };
      case "fail":
        return { action: "fail", stepId: target, reason: "gave up" };
      case "skip":
        return { action: "skip", stepId: target, reason: "not needed" };
    }
  }
  toString = () =>
    `modify(${this.p.action}, ${this.p.target === "pick" ? `pick ${this.p.pick}` : this.p.target}${this.p.action === "reorder" ? `, ${this.p.reorder}` : ""}${this.p.blankRationale ? ", blank rationale" : ""})`;
}

class RequestReviewCmd implements Cmd {
  constructor(readonly p: { pick: number; rightClaim: boolean; questions: number; anyStep: boolean }) {}
  check = (m: Readonly<Model>) => this.p.anyStep || m.state.steps.some((s) => s.status === "in_progress");
  async run(m: Model, r: Real) {
    const inProgress = m.state.steps.filter((s) => s.status === "in_progress");
    const step = pickFrom(inProgress.length ? inProgress : m.state.steps, this.p.pick) as Step;
    const request = {
      stepId: step.stepId,
      claimId: this.p.rightClaim ? (step.claimId ?? BOGUS_CLAIM) : BOGUS_CLAIM,
      presentation: "Here is what I found",
      questions: Array.from({ length: this.p.questions }, (_, i) => `Question ${i + 1}?`),
    };
    await execute(m, r, this.toString(), { kind: "request_review", ...request }, (state, now) => requestReview(state, request, now));
  }
  toString = () => `requestReview(pick ${this.p.pick}, ${this.p.rightClaim ? "right claim" : "wrong claim"}, ${this.p.questions} questions${this.p.anyStep ? ", any step" : ""})`;
}

class SubmitReviewCmd implements Cmd {
  constructor(readonly p: { pick: number; decision: ReviewDecision["decision"]; feedback: boolean; followUps: NewStep[]; anyStep: boolean }) {}
  check = (m: Readonly<Model>) => this.p.anyStep || m.state.steps.some((s) => s.status === "awaiting_input");
  async run(m: Model, r: Real) {
    const waiting = m.state.steps.filter((s) => s.status === "awaiting_input");
    const step = pickFrom(waiting.length ? waiting : m.state.steps, this.p.pick) as Step;
    const decision: ReviewDecision = { stepId: step.stepId, decision: this.p.decision, feedback: this.p.feedback ? "Dig deeper" : null, followUpSteps: this.p.followUps };
    await execute(m, r, this.toString(), { kind: "submit_review", decision }, (state, now, newId) => submitReview(state, decision, ACTOR, now, newId));
  }
  toString = () =>
    `submitReview(pick ${this.p.pick}, ${this.p.decision}, ${this.p.feedback ? "feedback" : "no feedback"}, ${this.p.followUps.length} follow-ups${this.p.anyStep ? ", any step" : ""})`;
}

class CancelCmd implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await execute(m, r, this.toString(), { kind: "cancel", reason: "no longer needed" }, (state, now) => cancelPlan(state, "no longer needed", now));
  }
  toString = () => "cancel";
}

class ResumeCmd implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await execute(m, r, this.toString(), { kind: "resume", sessionId: "sess_resumed" }, (state) => ({
      state,
      events: [{ action: "session_resumed", stepId: null, detail: { sessionId: "sess_resumed" } }],
      modifications: [],
    }));
  }
  toString = () => "resume";
}

class CreateAgainCmd implements Cmd {
  constructor(readonly input: CreatePlanInput) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const input = { ...this.input, planId: m.planId, orgId: m.orgId };
    await execute(m, r, this.toString(), { kind: "create", input }, () => {
      throw conflict("exists");
    });
  }
  toString = () => "createAgain";
}

/**
 * Ages the chosen in-progress steps (their last activity `ageMinutes` before now,
 * in the object's SQLite and in the model alike), then runs the object's alarm:
 * the model marks the plan stalled at the same time.
 */
class AlarmCmd implements Cmd {
  constructor(readonly p: { mask: number; ageMinutes: number; twice: boolean; anyTime: boolean }) {}
  /** Mostly when a step is in progress, the only time the alarm has something to do. */
  check = (m: Readonly<Model>) => this.p.anyTime || m.state.steps.some((s) => s.status === "in_progress");
  async run(m: Model, r: Real) {
    m.commands += 1;
    const label = this.toString();
    const now = m.tick();
    const aged = m.state.steps.filter((s, i) => s.status === "in_progress" && ((this.p.mask >> i) & 1) === 1).map((s) => s.stepId);
    if (aged.length > 0) {
      const at = now - this.p.ageMinutes * MINUTE;
      const realIds = aged.map((id) => m.toReal(id));
      await runInDurableObject(r.stub, (_instance: PlanObject, state) => {
        for (const stepId of realIds) state.storage.sql.exec("UPDATE steps SET data = json_set(data, '$.lastActivityAt', ?) WHERE step_id = ?", at, stepId);
      });
      m.state = { ...m.state, steps: m.state.steps.map((s) => (aged.includes(s.stepId) ? { ...s, lastActivityAt: at } : s)) };
    }
    for (let round = 0; round < (this.p.twice ? 2 : 1); round++) {
      const armed = m.alarmAt !== null;
      const ran = await runDurableObjectAlarm(r.stub);
      count(ran ? "alarm ran" : "alarm not armed");
      if (!isTerminalPlan(m.state.plan)) expect(ran, `${label} (command ${m.commands}): an alarm was armed`).toBe(armed);
      if (ran) {
        const transition = markStalled(m.state, now);
        if (transition.events.length > 0) m.record(transition, ALARM_ACTOR, now);
        m.state = transition.state;
        m.scheduleAlarm(now);
      }
      await verify(m, r, label);
    }
  }
  toString = () => `alarm(age mask ${this.p.mask.toString(2)}, ${this.p.ageMinutes} min${this.p.twice ? ", twice" : ""})`;
}

class EvictCmd implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    m.commands += 1;
    await evictDurableObject(r.stub);
    count("evict");
    await verify(m, r, "evict");
  }
  toString = () => "evict";
}

/** Time passes with nobody calling: the next command comes this much later. */
class WaitCmd implements Cmd {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(m: Model) {
    m.advance(this.minutes * MINUTE);
  }
  toString = () => `wait(${this.minutes} min)`;
}

// ---------------------------------------------------------------- generators

const stepTypeArb = fc.constantFrom(...STEP_TYPES);
const rarely = fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
const specArb = fc.record({
  stepType: stepTypeArb,
  instructions: fc.string({ minLength: 1, maxLength: 12 }),
  critical: rarely,
  stallThresholdMinutes: fc.option(fc.constantFrom(5, 20, 60), { freq: 3 }),
});
const pickArb = fc.nat({ max: 1000 });
const resultArb = fc.jsonValue({ maxDepth: 2 }).map(plain);
const confidenceArb = fc.oneof(fc.constantFrom(0.1, 0.4, 0.6, 0.9), fc.double({ min: 0, max: 1, noNaN: true }));

const planArb = (parallel: boolean) =>
  fc
    .record({
      lead: parallel ? fc.option(fc.array(specArb, { minLength: 2, maxLength: 3 }), { freq: 3 }) : fc.constant(null),
      segments: fc.array(fc.record({ group: parallel ? fc.boolean() : fc.constant(false), specs: fc.array(specArb, { minLength: 1, maxLength: parallel ? 3 : 1 }) }), {
        minLength: 1,
        maxLength: parallel ? 3 : 4,
      }),
      conditions: fc.array(
        fc.record({
          after: fc.nat(),
          confidenceBelow: fc.constantFrom(0.3, 0.5, 0.7),
          insertSteps: fc.array(
            specArb.chain((spec) => fc.option(fc.constant("g-gate"), { freq: 8 }).map((parallelGroup) => ({ ...spec, parallelGroup }))),
            { minLength: 1, maxLength: 2 },
          ),
        }),
        { maxLength: 2 },
      ),
      name: fc.constantFrom("[Scan] Vector databases", "[Deep] Vector databases"),
      sessionId: fc.option(fc.constant("sess_model")),
      stallThresholdMinutes: fc.option(fc.constantFrom(15, 40), { freq: 3 }),
    })
    .map(({ lead, segments, conditions, name, sessionId, stallThresholdMinutes }): CreatePlanInput => {
      // A parallel plan most often starts with its group, so that a short run reaches takeovers and waiting workers.
      const steps = [...(lead ? [{ group: true, specs: lead }] : []), ...segments]
        .flatMap((segment, i) => segment.specs.map((spec): NewStep => ({ ...spec, parallelGroup: segment.group && segment.specs.length > 1 ? `g${i}` : null })))
        .slice(0, 6);
      return {
        planId: "",
        orgId: "",
        name,
        researchQuestion: "Which vector database fits on-device search?",
        steps,
        branchingConditions: conditions.map((c) => ({ afterStepOrder: (c.after % steps.length) + 1, confidenceBelow: c.confidenceBelow, insertSteps: c.insertSteps, rationale: "quality gate" })),
        planDesignRationale: "Search, then analyze",
        outputFormattingNotes: null,
        sessionId,
        executionId: null,
        stallThresholdMinutes,
      };
    });

const modifyArb = fc
  .record({
    action: fc.constantFrom("add", "remove", "reorder", "update", "fail", "skip"),
    target: fc.constantFrom("pick", "pick", "pick", "bogus", "none"),
    pick: pickArb,
    order: fc.array(fc.nat({ max: 100 }), { maxLength: 8 }),
    reorder: fc.constantFrom("valid", "valid", "valid", "drop", "duplicate", "foreign", "empty"),
    steps: fc.array(specArb, { minLength: 1, maxLength: 2 }),
    group: fc.constantFrom("keep", "keep", "keep", "target", "new"),
    blankRationale: rarely,
  })
  .map((p) => new ModifyCmd({ ...p, target: p.action === "add" || p.target !== "none" ? p.target : "pick" } as ModifyParams));

interface Weights {
  next: number;
  submit: number;
  stale: number;
  resubmit: number;
  modify: number;
  requestReview: number;
  submitReview: number;
  cancel: number;
  alarm: number;
  evict: number;
  wait: number;
  other: number;
}

const commandArbs = (w: Weights): fc.Arbitrary<Cmd>[] => {
  const weighted: [number, fc.Arbitrary<Cmd>][] = [
    [w.next, fc.nat({ max: 2 }).map((worker) => new NextCmd(worker))],
    [
      w.submit,
      fc
        .record({ pick: pickArb, result: resultArb, confidence: confidenceArb, summary: fc.boolean(), report: fc.boolean(), twice: rarely })
        .map((p) => new SubmitCmd(p)),
    ],
    [w.stale, fc.record({ pick: pickArb, old: fc.option(pickArb) }).map((p) => new StaleSubmitCmd(p))],
    [w.resubmit, fc.record({ pick: pickArb, same: fc.boolean() }).map((p) => new ResubmitCmd(p))],
    [w.modify, modifyArb],
    [w.requestReview, fc.record({ pick: pickArb, rightClaim: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)), questions: fc.nat({ max: 3 }), anyStep: rarely }).map((p) => new RequestReviewCmd(p))],
    [
      w.submitReview,
      fc
        .record({
          pick: pickArb,
          decision: fc.constantFrom("approve", "revise", "reject") as fc.Arbitrary<ReviewDecision["decision"]>,
          feedback: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)),
          followUps: fc.array(specArb, { maxLength: 2 }),
          anyStep: rarely,
        })
        .map((p) => new SubmitReviewCmd(p)),
    ],
    [w.cancel, fc.constant(new CancelCmd())],
    [
      w.alarm,
      fc.record({ mask: fc.nat({ max: 63 }), ageMinutes: fc.constantFrom(10, 25, 35, 50, 120), twice: fc.boolean(), anyTime: rarely }).map((p) => new AlarmCmd(p)),
    ],
    [w.evict, fc.constant(new EvictCmd())],
    [w.wait, fc.constantFrom(1, 10, 25, 35, 50, 70).map((minutes) => new WaitCmd(minutes))],
    [w.other, fc.oneof(fc.constant(new ResumeCmd()), planArb(false).map((input) => new CreateAgainCmd(input)))],
  ];
  return [fc.oneof(...weighted.filter(([weight]) => weight > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })))];
};

// ---------------------------------------------------------------- setup and properties

// The plans' org, as every plan has one: the directory routes its index to its home database (DB).
beforeAll(async () => {
  await env.DB.prepare("INSERT INTO orgs (id, slug, name, created_at) VALUES ('org_model', 'model', 'Model', 0) ON CONFLICT DO NOTHING").run();
});

let planCounter = 0;

function setup(input: CreatePlanInput) {
  return async () => {
    planCounter += 1;
    const orgId = "org_model";
    const planId = `plan_model_${planCounter}_${crypto.randomUUID().slice(0, 8)}`;
    const model = new PlanModel(planId, orgId, clock.now + 60 * MINUTE);
    const real: RealPlan = { stub: stubOf(orgId, planId), planId, orgId, last: null };
    const plan = { ...input, planId, orgId };
    await execute(model, real, "create", { kind: "create", input: plan }, (_state, now, newId) => createPlan(plan, ACTOR, now, newId));
    return { model, real };
  };
}

const profiles: { name: string; parallel: boolean; runs: number; maxCommands: number; weights: Weights }[] = [
  {
    name: "sequential plans: claims, results, replays, quality gates, modifications, cancel",
    parallel: false,
    runs: 334,
    maxCommands: 15,
    weights: { next: 8, submit: 8, stale: 2, resubmit: 2, modify: 5, requestReview: 2, submitReview: 2, cancel: 1, alarm: 2, evict: 1, wait: 1, other: 1 },
  },
  {
    name: "parallel groups and three workers: takeovers, stale claims, stalls and the alarm",
    parallel: true,
    runs: 334,
    maxCommands: 15,
    weights: { next: 10, submit: 4, stale: 3, resubmit: 1, modify: 2, requestReview: 1, submitReview: 1, cancel: 1, alarm: 4, evict: 2, wait: 4, other: 1 },
  },
  {
    name: "reviews, modifications and stalls mixed",
    parallel: true,
    runs: 334,
    maxCommands: 15,
    weights: { next: 6, submit: 3, stale: 1, resubmit: 1, modify: 3, requestReview: 5, submitReview: 5, cancel: 1, alarm: 2, evict: 1, wait: 1, other: 1 },
  },
];

describe("plan object against the pure state machine", () => {
  beforeAll(() => {
    // Far ahead of the wall clock, so no alarm the objects set can come due by itself during the run.
    clock.now = Date.now() + 30 * 24 * 60 * MINUTE;
    vi.spyOn(Date, "now").mockImplementation(() => clock.now);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  for (const profile of profiles) {
    it(
      profile.name,
      async () => {
        await fc.assert(
          fc.asyncProperty(planArb(profile.parallel), fc.commands(commandArbs(profile.weights), { maxCommands: profile.maxCommands, size: "medium" }), (input, commands) =>
            fc.asyncModelRun(setup(input), commands),
          ),
          { numRuns: profile.runs },
        );
      },
      // A fixed amount of work (334 sequences), not a wait: on a loaded two-core machine it took over 120 s.
      600_000,
    );
  }

  it("reached every state worth reaching", () => {
    const wanted = [
      "next -> ok step",
      "next -> ok step resumed",
      "next -> ok waiting",
      "next -> ok awaiting_review",
      "next -> ok plan_complete",
      "next -> ok plan_failed",
      "submit -> ok",
      "submit -> ok replayed",
      "submit -> conflict",
      "submit -> invalid_transition",
      "event step.taken_over",
      "event plan.branched",
      "event plan.completed",
      "event plan.failed",
      "event plan.cancelled",
      "event plan.stalled",
      "event plan.stall_cleared",
      "event review.requested",
      "event review.approve",
      "event review.revise",
      "event review.reject",
      ...["add", "remove", "reorder", "update", "fail", "skip"].flatMap((action) => [`modify.${action} -> ok`, `modify.${action} -> invalid_transition`]),
      "modify.add -> not_found",
      "modify.reorder -> validation",
      "request_review -> conflict",
      "submit_review -> validation",
      "create -> conflict",
      "alarm ran",
      "evict",
    ];
    expect(wanted.filter((key) => !coverage[key]), JSON.stringify(coverage, null, 1)).toEqual([]);
  });
});

describe("a finished plan's alarm", () => {
  // Divergence found while building the model: the object keeps the stall alarm of a plan that can no
  // longer stall. #scheduleAlarm skips stalled plans but not cancelled or failed ones, so a plan cancelled
  // (or failed) with a step in progress keeps its alarm; when it comes due, markStalled does nothing and
  // #scheduleAlarm re-arms at max(deadline, now + 1) = now + 1: the alarm then fires about every
  // millisecond for good. Remove `.fails` once plan-object.ts leaves terminal plans without an alarm.
  const orgId = "org_model";
  const planId = `plan_cancelled_${crypto.randomUUID().slice(0, 8)}`;
  const stub = stubOf(orgId, planId);

  beforeAll(async () => {
    // In a hook, so that a failure here fails the file instead of passing the `.fails` test below.
    const input: CreatePlanInput = {
      planId,
      orgId,
      name: "[Scan] Vector databases",
      researchQuestion: "q",
      steps: [{ stepType: "search", instructions: "look" }],
      branchingConditions: [],
      planDesignRationale: "r",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
    };
    const now = Date.now();
    expect(await stub.run({ kind: "create", input }, ACTOR, now)).toMatchObject({ ok: true });
    expect(await stub.run({ kind: "next", workerId: "worker-a" }, ACTOR, now + 1)).toMatchObject({ ok: true, value: { outcome: { status: "step" } } });
    expect(await stub.run({ kind: "cancel", reason: "done" }, ACTOR, now + 2)).toMatchObject({ ok: true, value: { state: { plan: { status: "cancelled" } } } });
  });

  it("is cleared when the plan is cancelled with a step in progress", async () => {
    expect(await runInDurableObject(stub, (_instance: PlanObject, state) => state.storage.getAlarm())).toBeNull();
  });
});
