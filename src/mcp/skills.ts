import { ProtocolError, ProtocolErrorCode, type Resource, type Server } from "@modelcontextprotocol/server";
import { z } from "zod";
import { parseFrontMatter, type SkillProfile } from "../domain/skills";
import { skillsOf } from "./prompts";
import { refuseCursor } from "./paging";

/**
 * MCP's Skills extension (SEP-2640): the skills `prompts/list` offers, also as Agent Skills a client
 * discovers with `skills/list` and loads when needed with `resources/read` of
 * `skill://cairn/<name>/SKILL.md` (`skill://cairn-core/…` on the core profile, whose text differs).
 * Same text as the prompts, from the same files. Each skill is one file, so the optional
 * `resources/directory/read` is not declared: an entry's `resources` already lists everything.
 */
export const SKILLS_EXTENSION_ID = "io.modelcontextprotocol/skills";

const ROOTS: Record<SkillProfile, string> = { full: "skill://cairn/", core: "skill://cairn-core/" };
const MARKDOWN = "text/markdown";

export const skillUri = (profile: SkillProfile, name: string): string => `${ROOTS[profile]}${name}/SKILL.md`;

/** One file of a skill, with what a host verifies it by: SHA-256 of its UTF-8 bytes and their length. */
export interface SkillFileEntry {
  uri: string;
  digest: string;
  size: number;
}

export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, string>;
  resources: SkillFileEntry[];
}

interface Served {
  entry: SkillEntry;
  name: string;
  description: string;
  markdown: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---/;

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...hash].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

const catalogs = new Map<SkillProfile, Promise<Served[]>>();

/** The profile's skills as entries, digests computed once per isolate. */
function servedSkills(profile: SkillProfile): Promise<Served[]> {
  let served = catalogs.get(profile);
  if (!served) {
    served = Promise.all(
      skillsOf(profile).map(async (skill) => {
        const uri = skillUri(profile, skill.name);
        const bytes = new TextEncoder().encode(skill.markdown);
        // The front matter exactly as written: the files hold top-level scalars only (checked by their tests).
        const frontmatter = parseFrontMatter(FENCE.exec(skill.markdown)?.[1] ?? "");
        return {
          entry: { uri, frontmatter, resources: [{ uri, digest: await sha256(bytes), size: bytes.byteLength }] },
          name: skill.name,
          description: skill.description,
          markdown: skill.markdown,
        };
      }),
    );
    catalogs.set(profile, served);
  }
  return served;
}

const listSkillEntries = async (profile: SkillProfile): Promise<SkillEntry[]> => (await servedSkills(profile)).map((skill) => skill.entry);

/** The text of a skill file this profile serves, or undefined for any other URI. */
export async function readSkillFile(profile: SkillProfile, uri: string): Promise<{ uri: string; mimeType: string; text: string } | undefined> {
  const skill = (await servedSkills(profile)).find((candidate) => candidate.entry.uri === uri);
  return skill && { uri, mimeType: MARKDOWN, text: skill.markdown };
}

export const isSkillUri = (uri: string): boolean => uri.startsWith("skill://");

/** The SKILL.md files as `resources/list` shows them: name and description from the front matter. */
export async function skillResources(profile: SkillProfile): Promise<Resource[]> {
  return (await servedSkills(profile)).map(({ entry, name, description, markdown }) => ({
    uri: entry.uri,
    name,
    description,
    mimeType: MARKDOWN,
    size: new TextEncoder().encode(markdown).byteLength,
  }));
}

const ListParams = z.object({ cursor: z.string().optional(), _meta: z.record(z.string(), z.unknown()).optional() });
const GetParams = z.object({ uri: z.string(), _meta: z.record(z.string(), z.unknown()).optional() });

/** `ttlMs`/`cacheScope` exist from 2026-07-28 on; 2025-era results carry neither. */
const CACHE = { ttlMs: 300_000, cacheScope: "private" as const };
const cacheFields = (server: Server) => ((server.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28" ? CACHE : {});

/** `skills/list` (one page: four skills) and `skills/get`; the capability is declared with the server's others. */
export function registerSkills(server: Server, profile: SkillProfile): void {
  server.setRequestHandler("skills/list", { params: ListParams }, async (params) => {
    refuseCursor(params);
    return { skills: await listSkillEntries(profile), ...cacheFields(server) };
  });
  server.setRequestHandler("skills/get", { params: GetParams }, async (params) => {
    const skill = (await servedSkills(profile)).find((candidate) => candidate.entry.uri === params.uri);
    if (!skill) {
      const known = skillsOf(profile).map((s) => skillUri(profile, s.name)).join(", ");
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${params.uri.slice(0, 200)}. Skills here: ${known}.`);
    }
    return { skill: skill.entry, ...cacheFields(server) };
  });
}
