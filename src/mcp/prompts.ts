import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import researchSkill from "../../skills/research/SKILL.md";
import researchDeepSkill from "../../skills/research-deep/SKILL.md";
import researchOutputSkill from "../../skills/research-output/SKILL.md";
import researchScanSkill from "../../skills/research-scan/SKILL.md";
import { isCairnError } from "../domain/errors";
import { type PromptArgument, parseSkill, promptArgumentsOf, promptInput, renderPrompt, type Skill } from "../domain/skills";
import { refuseCursor } from "./paging";

/**
 * The four skills as prompts, from the same SKILL.md files Claude installs (bundled as text
 * modules), so every client gets the same instructions. Parsed once per isolate.
 */
export const SKILLS: readonly Skill[] = [researchSkill, researchScanSkill, researchDeepSkill, researchOutputSkill].map(parseSkill);

const BY_NAME = new Map(SKILLS.map((skill) => [skill.name, skill]));

export interface PromptListing {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
}

export interface RenderedPrompt extends PromptListing {
  text: string;
}

export const listPrompts = (): PromptListing[] =>
  SKILLS.map(({ name, title, description }) => ({ name, title, description, arguments: promptArgumentsOf(name) }));

/** A prompt with its arguments filled in; `undefined` for a name that is not a prompt. Invalid arguments throw a `validation` CairnError. */
export function renderNamedPrompt(name: string, args: Record<string, unknown>): RenderedPrompt | undefined {
  const skill = BY_NAME.get(name);
  if (!skill) return undefined;
  const text = renderPrompt(skill, promptInput(name, args));
  return { name, title: skill.title, description: skill.description, arguments: promptArgumentsOf(name), text };
}

export function registerPrompts(server: Server): void {
  server.setRequestHandler("prompts/list", (request) => {
    refuseCursor(request.params);
    return { prompts: listPrompts() };
  });
  server.setRequestHandler("prompts/get", (request) => {
    const { name, arguments: args } = request.params;
    let prompt: RenderedPrompt | undefined;
    try {
      prompt = renderNamedPrompt(name, args ?? {});
    } catch (error) {
      if (!isCairnError(error)) throw error;
      const issues = (error.details.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.message}${issues ? ` ${issues}` : ""}`);
    }
    if (!prompt) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name.slice(0, 64)}. Prompts: ${SKILLS.map((s) => s.name).join(", ")}.`);
    }
    return { description: prompt.description, messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.text } }] };
  });
}
