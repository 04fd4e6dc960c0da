import { describe, expect, it } from "vitest";
import { clipAtWord, stepPurpose } from "./step-purpose";
import { planTemplates } from "./templates";

describe("stepPurpose", () => {
  it("reads the deep template's steps as purposes: no tool names, no argument shapes, never cut inside a word", () => {
    expect(stepPurpose('Synthesis worker 1: take subtopic 1 of the ledger (if there are fewer subtopics, submit {idle: true}). From its evidence only, record_claims with workerId "worker-1": each claim cites its refs (E…)')).toBe(
      "Synthesis worker 1: take subtopic 1 of the ledger",
    );
    expect(stepPurpose("Assess round 1: get_evidence_ledger; per subtopic, what is answered, open or contradicted. If nothing is open, skip the remaining retrieval rounds with modify_plan action skip.")).toBe(
      "Assess round 1: per subtopic, what is answered, open or contradicted",
    );
    expect(stepPurpose("Show the user the options, criteria and weights (request_user_review); continue after their decision.")).toBe(
      "Show the user the options, criteria and weights",
    );
    expect(stepPurpose("Critic: for each SUPPORTED claim marked highStakes (get_evidence_ledger status SUPPORTED, highStakes true), is the evidence strong enough for its weight?")).toBe(
      "Critic: for each SUPPORTED claim marked high stakes, is the evidence strong enough for its weight?",
    );
    expect(stepPurpose("Decompose batteries into 2–4 non-overlapping subtopics (the facets of the topic), one-line scope each; declare them with record_evidence {planId, subtopics}.")).toBe(
      "Decompose batteries into 2–4 non-overlapping subtopics, one-line scope each",
    );
  });

  it("keeps plain words as they are, and cuts a long purpose at a word with an ellipsis", () => {
    expect(stepPurpose("Find candidate engines")).toBe("Find candidate engines");
    const long = stepPurpose(`Write the report: ${"a section per subtopic where every paragraph cites grounded evidence ".repeat(4)}`);
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long).toMatch(/ [a-z]+…$/);
    expect(clipAtWord(`60 ${"y".repeat(500)}`, 20)).toBe(`60 ${"y".repeat(16)}…`);
    // Nothing but a tool name: the instructions as written rather than nothing.
    expect(stepPurpose("store_research_output")).toBe("store_research_output");
  });

  it("names no tool in any template step's purpose", () => {
    const templates = planTemplates({ topic: "solid-state batteries" });
    expect(templates.length).toBeGreaterThan(3);
    for (const template of templates) {
      for (const step of template.createPlanArguments.steps) {
        const purpose = stepPurpose(step.instructions);
        expect(purpose, step.instructions).not.toMatch(/[a-z]_[a-z]/);
        expect(purpose.length).toBeGreaterThan(10);
      }
    }
  });
});
