import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import researchSkill from "../../skills/research/SKILL.md";
import researchDeepSkill from "../../skills/research-deep/SKILL.md";
import researchOutputSkill from "../../skills/research-output/SKILL.md";
import researchScanSkill from "../../skills/research-scan/SKILL.md";
import { isCairnError } from "../domain/errors";
import {
  type PromptArgument,
  parseSkill,
  promptArgumentsOf,
  promptInput,
  renderPrompt,
  type Skill,
  type SkillName,
  type SkillProfile,
  SKILL_NAMES,
  skillSourceFor,
} from "../domain/skills";
import { refuseCursor } from "./paging";

/** The SKILL.md files Claude installs, bundled as text modules: the one source of every skill's text. */
const SOURCES: Record<SkillName, string> = {
  research: researchSkill,
  "research-scan": researchScanSkill,
  "research-deep": researchDeepSkill,
  "research-output": researchOutputSkill,
};

/** A skill as one profile serves it: the parsed skill and the SKILL.md text itself (front matter included). */
export interface ServedSkill extends Skill {
  markdown: string;
}

const catalogs = new Map<SkillProfile, readonly ServedSkill[]>();

/**
 * The skills a profile serves, each rendered for it (see `skillSourceFor`), so prompts, the Skills
 * extension and REST give every client the same instructions. Built once per isolate and profile.
 */
export function skillsOf(profile: SkillProfile): readonly ServedSkill[] {
  let skills = catalogs.get(profile);
  if (!skills) {
    skills = SKILL_NAMES.map((name) => {
      const markdown = skillSourceFor(SOURCES[name], profile);
      return { ...parseSkill(markdown), markdown };
    });
    catalogs.set(profile, skills);
  }
  return skills;
}

/** The full profile's skills (REST and `/mcp`). */
export const SKILLS: readonly Skill[] = skillsOf("full");

export interface PromptListing {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
}

export interface RenderedPrompt extends PromptListing {
  text: string;
}

export const listPrompts = (profile: SkillProfile = "full"): PromptListing[] =>
  skillsOf(profile).map(({ name, title, description }) => ({ name, title, description, arguments: promptArgumentsOf(name) }));

/** A prompt with its arguments filled in; `undefined` for a name that is not a prompt. Invalid arguments throw a `validation` CairnError. */
export function renderNamedPrompt(name: string, args: Record<string, unknown>, profile: SkillProfile = "full"): RenderedPrompt | undefined {
  const skill = skillsOf(profile).find((candidate) => candidate.name === name);
  if (!skill) return undefined;
  const text = renderPrompt(skill, promptInput(name, args), profile);
  return { name, title: skill.title, description: skill.description, arguments: promptArgumentsOf(name), text };
}

export function registerPrompts(server: Server, profile: SkillProfile = "full"): void {
  server.setRequestHandler("prompts/list", (request) => {
    refuseCursor(request.params);
    return { prompts: listPrompts(profile) };
  });
  server.setRequestHandler("prompts/get", (request) => {
    const { name, arguments: args } = request.params;
    let prompt: RenderedPrompt | undefined;
    try {
      prompt = renderNamedPrompt(name, args ?? {}, profile);
    } catch (error) {
      if (!isCairnError(error)) throw error;
      const issues = (error.details.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.message}${issues ? ` ${issues}` : ""}`);
    }
    if (!prompt) {
      const names = skillsOf(profile).map((s) => s.name).join(", ");
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name.slice(0, 64)}. Prompts: ${names}.`);
    }
    return { description: prompt.description, messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.text } }] };
  });
}
