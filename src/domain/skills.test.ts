import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { OPERATIONS } from "../operations/registry";
import { ERROR_CODES } from "./errors";
import { STEP_TYPES } from "./plans/model";
import { RESEARCH_TYPES } from "./plans/templates";
import { MEDIA_TYPES } from "./research/outputs";
import { mentionedIdentifiers, parseFrontMatter, parseSkill, promptInput, renderPrompt, SKILL_LIMITS, SKILL_NAMES, skillSourceFor } from "./skills";

/** Tools being built alongside the skills (issues #5 and #6); the lead folds them into the registry. */
const TOOLS_IN_PROGRESS = [
  "get_plan_templates",
  "record_evidence",
  "record_claims",
  "record_verdicts",
  "get_evidence_ledger",
  "sequential_search",
  "get_research_session",
];

/** Snake_case words the skills quote that are values, not tools: enum members and audit actions. */
const VALUES = new Set<string>([
  ...RESEARCH_TYPES,
  ...MEDIA_TYPES,
  ...ERROR_CODES,
  ...STEP_TYPES,
  "none_found",
  "use_existing",
  "plan_complete",
  "awaiting_review",
  "plan_failed",
  "budget_exhausted",
  "session_resumed",
]);

const read = (name: string) => readFileSync(`skills/${name}/SKILL.md`, "utf8");
const TOOL_NAMES = new Set([...OPERATIONS.map((operation) => operation.name), ...TOOLS_IN_PROGRESS]);

describe("the skills in skills/", () => {
  it("are exactly the four skills of the seeds, one directory each", () => {
    const directories = readdirSync("skills", { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(directories).toEqual([...SKILL_NAMES].sort());
  });

  for (const name of SKILL_NAMES) {
    describe(name, () => {
      const source = read(name);
      const skill = parseSkill(source);

      it("is named after its directory and has a description an assistant can choose by", () => {
        expect(skill.name).toBe(name);
        expect(skill.description.length).toBeGreaterThan(100);
        expect(skill.description.length).toBeLessThanOrEqual(SKILL_LIMITS.descriptionChars);
        expect(skill.description).toMatch(/\bUse (after|when|it|for)\b|Start here/);
      });

      it("has front matter a real YAML parser reads the same way, with only the fields Agent Skills knows", () => {
        const yaml = /^---\n([\s\S]*?)\n---\n/.exec(source)?.[1] ?? "";
        const parsed = parseYaml(yaml) as Record<string, unknown>;
        expect(Object.keys(parsed)).toEqual(["name", "description"]);
        expect(parsed).toEqual({ name: skill.name, description: skill.description });
      });

      it("names only tools that exist (the registry or the tools being built), and only known values", () => {
        const unknown = mentionedIdentifiers(skill.body).filter((word) => !TOOL_NAMES.has(word) && !VALUES.has(word));
        expect(unknown).toEqual([]);
      });

      it("stays short: at most about 250 lines, as each profile serves it", () => {
        for (const profile of ["full", "core"] as const) expect(skillSourceFor(source, profile).split("\n").length, profile).toBeLessThanOrEqual(260);
      });
    });
  }

  it("cover the lifecycle of seed 000 and the protocol of seed 001 with the actual tools", () => {
    const mentions = (name: string) => new Set(mentionedIdentifiers(parseSkill(read(name)).body));
    const expectations: Record<string, string[]> = {
      research: ["log_skill_execution", "search_sources", "list_active_plans", "get_research_context"],
      "research-scan": [
        "get_plan_templates",
        "create_research_plan",
        "get_next_step",
        "get_step_context",
        "submit_step_result",
        "store_research",
        "modify_plan",
        "request_user_review",
        "submit_review",
        "get_plan_status",
        "sequential_search",
        "get_research_session",
        "extract_data",
      ],
      "research-deep": [
        "get_plan_templates",
        "create_research_plan",
        "record_evidence",
        "record_claims",
        "record_verdicts",
        "get_evidence_ledger",
        "store_research_output",
        "modify_plan",
      ],
      "research-output": ["get_research_context", "store_research_output", "submit_research_feedback", "log_skill_execution"],
    };
    for (const [name, tools] of Object.entries(expectations)) {
      const found = mentions(name);
      expect(tools.filter((tool) => !found.has(tool)), name).toEqual([]);
    }
    const router = read("research");
    for (const element of ["topic", "researchType", "scope", "depthSignals", "decisionContext", "knownContext", "outputMediaType", "outputFormattingInstructions"]) {
      expect(router).toContain(`\`${element}\``);
    }
    for (const word of ["skipQuestionsReason", "clarifyingQuestions", "routingRationale", "Use existing", "Refresh", "Unique", "Never more than 2"]) {
      expect(router).toContain(word);
    }
    const deep = read("research-deep");
    for (const verdict of ["SUPPORTED", "UNSUPPORTED", "OVERSTATED", "CONTRADICTED", "SURVIVES", "DOWNGRADE", "REJECT", "UNVERIFIED", 'citationPolicy: "strict"', "[E3]"]) {
      expect(deep).toContain(verdict);
    }
    const output = read("research-output");
    for (const mediaType of MEDIA_TYPES) expect(output).toContain(`\`${mediaType}\``);
    expect(output).toContain('phase: "initial"');
    expect(output).toContain('phase: "closing"');
  });
});

describe("parseSkill", () => {
  it("reads plain, quoted and block-scalar front matter and the body's first heading", () => {
    const skill = parseSkill('---\nname: demo-skill\ndescription: >\n  Folded over\n  two lines.\n---\n\n# Demo\n\nBody text.\n');
    expect(skill).toEqual({ name: "demo-skill", title: "Demo", description: "Folded over two lines.", body: "# Demo\n\nBody text." });
    expect(parseFrontMatter("name: x\ndescription: \"Says \\\"hi\\\": twice\"\nnote: 'it''s'\nlist: |\n  a\n  b")).toEqual({
      name: "x",
      description: 'Says "hi": twice',
      note: "it's",
      list: "a\nb",
    });
  });

  it("refuses a file without front matter, a bad name, and a missing or oversized description", () => {
    expect(() => parseSkill("# No front matter")).toThrow(/front matter/);
    expect(() => parseSkill("---\nname: Bad_Name\ndescription: d\n---\nbody")).toThrow(/lowercase/);
    expect(() => parseSkill("---\nname: ok\n---\nbody")).toThrow(/description/);
    expect(() => parseSkill(`---\nname: ok\ndescription: ${"x".repeat(1025)}\n---\nbody`)).toThrow(/1024/);
    expect(() => parseSkill("---\nname: ok\nnot a pair\n---\nbody")).toThrow(/key: value/);
  });
});

describe("mentionedIdentifiers", () => {
  it("finds snake_case calls and quoted names, not camelCase fields or prose", () => {
    expect(mentionedIdentifiers("call get_next_step({ planId }) then `submit_step_result`; stepExecutionReport, plain words, `planId`")).toEqual([
      "get_next_step",
      "submit_step_result",
    ]);
  });
});

describe("prompt arguments", () => {
  it("accepts topic everywhere and planId on the executors, folding whitespace", () => {
    expect(promptInput("research", { topic: "  vector\n databases  " })).toEqual({ topic: "vector databases" });
    expect(promptInput("research-output", { topic: "x", planId: "plan_abc" })).toEqual({ topic: "x", planId: "plan_abc" });
    expect(promptInput("research-scan", { topic: "" })).toEqual({});
  });

  it("refuses unknown arguments, a plan id on the router, a bad plan id, an oversized topic and non-strings", () => {
    expect(() => promptInput("research", { planId: "plan_abc" })).toThrow(/Invalid arguments/);
    expect(() => promptInput("research-scan", { audience: "x" })).toThrow(/Invalid arguments/);
    expect(() => promptInput("research-scan", { planId: "../../etc" })).toThrow(/Invalid arguments/);
    expect(() => promptInput("research", { topic: "x".repeat(501) })).toThrow(/Invalid arguments/);
    expect(() => promptInput("research", { topic: 42 })).toThrow(/Invalid arguments/);
  });

  it("renders a header with the topic and plan, then the skill body unchanged", () => {
    const skill = parseSkill(read("research-scan"));
    const text = renderPrompt(skill, { topic: "Vector databases", planId: "plan_abc" });
    expect(text).toContain("Topic: Vector databases");
    expect(text).toContain("Plan: plan_abc");
    expect(text.endsWith(`${skill.body}\n`)).toBe(true);
    expect(renderPrompt(skill, {})).toContain("Topic: not given yet");
  });
});

describe("skillSourceFor", () => {
  const source = "---\nname: demo\ndescription: d\n---\n\nBoth.\n<!-- full -->\nFull only.\n<!-- /full -->\n<!-- core\nCore only.\n-->\n\nBoth again.\n";

  it("keeps the full profile's sections for /mcp and the core profile's for /mcp/core, markers dropped", () => {
    expect(skillSourceFor(source, "full")).toBe("---\nname: demo\ndescription: d\n---\n\nBoth.\nFull only.\n\nBoth again.\n");
    expect(skillSourceFor(source, "core")).toBe("---\nname: demo\ndescription: d\n---\n\nBoth.\nCore only.\n\nBoth again.\n");
  });

  it("refuses a section left open, nested, or closed without opening", () => {
    expect(() => skillSourceFor("<!-- core\ntext\n", "full")).toThrow(/left open|leaves a core section open/);
    expect(() => skillSourceFor("<!-- full -->\n<!-- core\nx\n-->\n<!-- /full -->\n", "core")).toThrow(/inside a full section/);
    expect(() => skillSourceFor("text\n<!-- /full -->\n", "full")).toThrow(/not open/);
  });

  it("renders a prompt for an existing plan with a tool the profile serves", () => {
    const skill = parseSkill(skillSourceFor(read("research-output"), "core"));
    expect(renderPrompt(skill, { planId: "plan_abc" }, "core")).toContain("see where it stands with get_plan_status first");
    expect(renderPrompt(skill, { planId: "plan_abc" }, "full")).toContain("load it with get_research_context first");
  });
});
