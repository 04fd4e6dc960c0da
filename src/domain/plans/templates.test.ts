import { describe, expect, it } from "vitest";
import { LIMITS } from "./model";
import { deepParameters, planTemplate, planTemplates } from "./templates";

describe("plan templates", () => {
  it("has a scan and a deep template for every research type", () => {
    expect(planTemplates({}).map((t) => t.templateId)).toEqual([
      "scan.general_topic",
      "deep.general_topic",
      "scan.competitive_analysis",
      "deep.competitive_analysis",
      "scan.decision_support",
      "deep.decision_support",
    ]);
    expect(planTemplates({ mode: "deep", researchType: "decision_support" })).toHaveLength(1);
  });

  it("uses seed 001's defaults for deep parameters", () => {
    expect(deepParameters()).toEqual({ depth: "standard", maxResearchers: 3, rounds: 2, output: "report" });
    expect(deepParameters({ depth: "exhaustive" })).toEqual({ depth: "exhaustive", maxResearchers: 5, rounds: 3, output: "report" });
    expect(deepParameters({ depth: "exhaustive", rounds: 1, output: "brief" })).toMatchObject({ maxResearchers: 5, rounds: 1, output: "brief" });
  });

  it("follows the deep protocol: decompose, rounds, one synthesis step per researcher in one group, two review shards, critic, report", () => {
    const { createPlanArguments: args } = planTemplate("general_topic", "deep", "solid-state batteries", { maxResearchers: 4, rounds: 3 });
    const types = args.steps.map((s) => s.stepType);
    expect(types).toEqual(["analyze", "search", "analyze", "search", "analyze", "search", "analyze", "synthesize", "synthesize", "synthesize", "synthesize", "critique", "critique", "critique", "synthesize"]);
    expect(args.steps.filter((s) => s.parallelGroup === "synthesis")).toHaveLength(4);
    expect(args.steps.filter((s) => s.parallelGroup === "review").map((s) => s.instructions.match(/shard (\d)/)?.[1])).toEqual(["1", "2"]);
    // Each reviewer is told its own shard only.
    const [first, second] = args.steps.filter((s) => s.parallelGroup === "review").map((s) => s.instructions);
    expect(first).toContain("odd-numbered claims (C1, C3, C5…)");
    expect(first).not.toMatch(/even|C2|C4/);
    expect(second).toContain("even-numbered claims (C2, C4, C6…)");
    expect(second).not.toMatch(/\bodd|C1|C3/);
    expect(args.citationPolicy).toBe("strict");
    expect(args.name).toBe("[Deep] solid-state batteries");
    // The quality gate follows the critic step (1-based order).
    expect(args.branchingConditions?.[0]?.afterStep).toBe(14);
    expect(args.steps[13]?.instructions).toMatch(/^Critic/);
  });

  it("fills the topic everywhere and stays within the engine's limits at the largest size", () => {
    for (const template of planTemplates({ topic: "EV charging", parameters: { maxResearchers: 6, rounds: 4, depth: "exhaustive" } })) {
      const args = template.createPlanArguments;
      expect(JSON.stringify(args)).not.toContain("<topic>");
      expect(args.steps.length).toBeLessThanOrEqual(LIMITS.stepsPerPlan);
      for (const s of args.steps) expect(s.instructions.length).toBeLessThanOrEqual(LIMITS.instructionsChars);
    }
    const largest = planTemplate("decision_support", "deep", "x", { maxResearchers: 6, rounds: 4 });
    expect(largest.createPlanArguments.steps).toHaveLength(1 + 1 + 8 + 6 + 2 + 1 + 1);
    // A decision's options and criteria are confirmed by the user right after decomposition.
    expect(largest.createPlanArguments.steps[1]?.stepType).toBe("checkpoint");
    expect(largest.createPlanArguments.branchingConditions?.[0]?.afterStep).toBe(19);
  });

  it("gives each scan a design rationale of its own steps", () => {
    const rationale = (type: "general_topic" | "competitive_analysis" | "decision_support") => planTemplate(type, "scan", "heat pumps").createPlanArguments.planDesignRationale ?? "";
    expect(rationale("general_topic")).toMatch(/survey, fill gaps, organize, answer/);
    expect(rationale("competitive_analysis")).toMatch(/players[\s\S]*primary sources[\s\S]*matrix[\s\S]*landscape/);
    expect(rationale("decision_support")).toMatch(/options[\s\S]*criteria[\s\S]*confirm[\s\S]*challenge[\s\S]*recommend/);
    expect(rationale("competitive_analysis")).not.toMatch(/survey, fill gaps/);
    expect(rationale("decision_support")).not.toMatch(/survey, fill gaps/);
  });

  it("gives scan plans no ledger and a checkpoint for decisions", () => {
    const scan = planTemplate("decision_support", "scan", "which CRM", {});
    expect(scan.createPlanArguments.citationPolicy).toBeUndefined();
    expect(scan.createPlanArguments.name).toBe("[Scan] which CRM");
    expect(scan.createPlanArguments.steps.some((s) => s.stepType === "checkpoint")).toBe(true);
    expect(scan.parameters).toBeNull();
  });

  it("offers approval before a large deep plan spends, not before a standard one or a scan", () => {
    expect(planTemplate("general_topic", "deep", "x", {}).createPlanArguments.approval).toBeUndefined();
    expect(planTemplate("general_topic", "scan", "x", {}).createPlanArguments.approval).toBeUndefined();
    const exhaustive = planTemplate("general_topic", "deep", "x", { depth: "exhaustive" });
    expect(exhaustive.createPlanArguments).toMatchObject({ approval: "required", budget: { maxToolCalls: 600 } });
    expect(exhaustive.description).toContain("asks for the user's approval");
    expect(planTemplate("competitive_analysis", "deep", "x", { maxResearchers: 5, rounds: 2 }).createPlanArguments.approval).toBe("required");
    expect(planTemplate("competitive_analysis", "deep", "x", { maxResearchers: 3, rounds: 3 }).createPlanArguments.approval).toBeUndefined();
  });
});
