import { validationError } from "./errors";

/**
 * The four research skills (skills/<name>/SKILL.md, Agent Skills format) and the MCP prompts made
 * from them. Pure: the faces import the files as text and hand them here.
 */
export const SKILL_NAMES = ["research", "research-scan", "research-deep", "research-output"] as const;
export type SkillName = (typeof SKILL_NAMES)[number];

/** Agent Skills limits: a lowercase hyphenated name of at most 64 characters, a description of at most 1024. */
export const SKILL_LIMITS = { nameChars: 64, descriptionChars: 1024, topicChars: 500 } as const;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface Skill {
  name: string;
  /** The body's first `# ` heading, else the name. */
  title: string;
  description: string;
  /** The markdown after the front matter. */
  body: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\n])/g, (_m, c: string) => (c === "n" ? "\n" : c));
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

/**
 * The front matter's top-level `key: value` pairs: plain or quoted scalars, and `>` (folded) or
 * `|` (literal) block scalars. That is all a SKILL.md needs; nested keys are kept as raw text.
 */
export function parseFrontMatter(yaml: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!line.trim() || line.trimStart().startsWith("#") || /^\s/.test(line)) continue;
    const match = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (!match) throw validationError(`Front matter line ${i + 1} is not "key: value".`, [{ path: `frontMatter.${i + 1}`, message: "Expected key: value" }]);
    const key = match[1] as string;
    const value = (match[2] ?? "").trim();
    const block = /^([>|])[-+]?$/.exec(value);
    if (block || value === "") {
      const continuation: string[] = [];
      while (i + 1 < lines.length && (/^\s/.test(lines[i + 1] ?? "") || (lines[i + 1] ?? "").trim() === "")) {
        continuation.push((lines[++i] ?? "").trim());
      }
      fields[key] = block?.[1] === "|" ? continuation.join("\n").trim() : continuation.filter(Boolean).join(" ");
    } else {
      fields[key] = unquote(value);
    }
  }
  return fields;
}

/** A SKILL.md: front matter with a valid `name` and `description`, then the body. */
export function parseSkill(source: string): Skill {
  const match = FENCE.exec(source);
  if (!match) throw validationError("A SKILL.md starts with front matter between --- lines.", [{ path: "frontMatter", message: "Missing" }]);
  const fields = parseFrontMatter(match[1] ?? "");
  const name = fields.name ?? "";
  const description = (fields.description ?? "").trim();
  if (!NAME_PATTERN.test(name) || name.length > SKILL_LIMITS.nameChars) {
    throw validationError(`Skill name "${name}" must be lowercase letters, digits and hyphens, at most ${SKILL_LIMITS.nameChars} characters.`, [
      { path: "name", message: "Invalid skill name" },
    ]);
  }
  if (!description || description.length > SKILL_LIMITS.descriptionChars) {
    throw validationError(`Skill ${name} needs a description of 1–${SKILL_LIMITS.descriptionChars} characters.`, [
      { path: "description", message: "Missing or too long" },
    ]);
  }
  const body = source.slice(match[0].length).trim();
  const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? name;
  return { name, title, description, body };
}

/**
 * Snake_case names a text calls or quotes: `tool_name(` and `` `tool_name` ``. Used to check that
 * the skills name only tools that exist; enum values in backticks (e.g. `general_topic`) show up too.
 */
export function mentionedIdentifiers(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*\(/g)) found.add(match[1] as string);
  for (const match of text.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)) found.add(match[1] as string);
  return [...found].sort();
}

export interface PromptArgument {
  name: string;
  description: string;
  required: false;
}

const TOPIC: PromptArgument = { name: "topic", description: "What to research (or the plan's topic)", required: false };
const PLAN_ID: PromptArgument = { name: "planId", description: "An existing plan to continue or deliver", required: false };

/** Every prompt takes a topic; the executors and the output skill may also be pointed at a plan. */
export const promptArgumentsOf = (name: string): PromptArgument[] => (name === "research" ? [TOPIC] : [TOPIC, PLAN_ID]);

export interface PromptInput {
  topic?: string;
  planId?: string;
}

/** Checks a prompt's arguments: only the declared ones, a topic of at most 500 characters, a plan id's shape. */
export function promptInput(name: string, raw: Record<string, unknown>): PromptInput {
  const allowed = new Set(promptArgumentsOf(name).map((argument) => argument.name));
  const issues = Object.keys(raw)
    .filter((key) => !allowed.has(key))
    .map((key) => ({ path: key, message: `Not an argument of ${name}; use ${[...allowed].join(", ")}` }));
  const input: PromptInput = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!allowed.has(key) || value === undefined || value === "") continue;
    if (typeof value !== "string") {
      issues.push({ path: key, message: "Expected a string" });
      continue;
    }
    // One line: the header stays a header whatever the caller typed.
    const text = value.replace(/\s+/g, " ").trim();
    if (key === "topic") {
      if (text.length > SKILL_LIMITS.topicChars) issues.push({ path: key, message: `At most ${SKILL_LIMITS.topicChars} characters` });
      else if (text) input.topic = text;
    } else if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) {
      issues.push({ path: key, message: "Not a plan id" });
    } else {
      input.planId = text;
    }
  }
  if (issues.length) throw validationError(`Invalid arguments for prompt ${name}.`, issues);
  return input;
}

/** How a prompt for an existing plan starts: with a tool the profile serves. */
const LOAD_PLAN = { full: "load it with get_research_context first", core: "see where it stands with get_plan_status first" } as const;

/** The prompt text: a short header that fills in the arguments, then the skill's body unchanged. */
export function renderPrompt(skill: Skill, input: PromptInput, profile: SkillProfile = "full"): string {
  const header = [
    `You are running Cairn's ${skill.name} skill. Follow the instructions below, calling Cairn's tools as they say.`,
    input.topic ? `Topic: ${input.topic}` : "Topic: not given yet; take it from the user's request (ask if there is none).",
  ];
  if (input.planId) header.push(`Plan: ${input.planId} (an existing plan: ${LOAD_PLAN[profile]}).`);
  return `${header.join("\n")}\n\n---\n\n${skill.body}\n`;
}

/**
 * The two texts one SKILL.md holds: the full profile's (`/mcp`, and the file as installed) and the
 * core profile's (`/mcp/core`, which serves fewer tools). Lines between `<!-- full -->` and
 * `<!-- /full -->` are the full profile's alone; an HTML comment block opened by a line `<!-- core`
 * and closed by a line `-->` is the core profile's alone (a comment, so the installed file and its
 * rendering read as the full text). Each marker sits on a line of its own.
 */
export type SkillProfile = "full" | "core";

const FULL_OPEN = "<!-- full -->";
const FULL_CLOSE = "<!-- /full -->";
const CORE_OPEN = "<!-- core";
const CORE_CLOSE = "-->";

/** The SKILL.md text a profile serves. A marker left open or nested is a mistake in the file, refused. */
export function skillSourceFor(source: string, profile: SkillProfile): string {
  const out: string[] = [];
  let section: "full" | "core" | null = null;
  const lines = source.split("\n");
  lines.forEach((line, index) => {
    const marker = line.trim();
    const opens = marker === FULL_OPEN ? "full" : marker === CORE_OPEN ? "core" : null;
    if (opens) {
      if (section) throw validationError(`SKILL.md line ${index + 1} opens a ${opens} section inside a ${section} section.`, [{ path: `line.${index + 1}`, message: "Nested section" }]);
      section = opens;
      return;
    }
    if ((section === "full" && marker === FULL_CLOSE) || (section === "core" && marker === CORE_CLOSE)) {
      section = null;
      return;
    }
    if (marker === FULL_CLOSE) throw validationError(`SKILL.md line ${index + 1} closes a section that is not open.`, [{ path: `line.${index + 1}`, message: "Unopened section" }]);
    if (section === null || section === profile) out.push(line);
  });
  if (section) throw validationError(`SKILL.md leaves a ${section} section open.`, [{ path: "section", message: "Unclosed section" }]);
  // Dropping a section can leave two blank lines where one was.
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}
