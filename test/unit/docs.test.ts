import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/** Every page people read: the front door, the docs behind it, security, benchmarks, skills. */
const PAGES = ["README.md", "SECURITY.md", "bench/README.md", "skills/README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

const read = (page: string) => readFileSync(page, "utf8");

/** Markdown outside fenced code blocks (a link inside ``` is an example, not a link). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
}

function anchors(page: string): Set<string> {
  const headings = prose(read(page))
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => slug(line.replace(/^#+ /, "")));
  return new Set(headings);
}

/** Relative links of a page: [text](target) and ![alt](target), not http(s) or mailto. */
function relativeLinks(page: string): string[] {
  const links: string[] = [];
  for (const match of prose(read(page)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? "";
    if (!/^[a-z]+:/i.test(target)) links.push(target);
  }
  return links;
}

/** Every `npm run cairn -- …` command line the docs show, without its trailing comment. */
function cliCommands(): { page: string; command: string }[] {
  const found: { page: string; command: string }[] = [];
  for (const page of PAGES) {
    for (const match of read(page).matchAll(/npm run cairn -- ([^`\n]+)/g)) {
      const command = (match[1] ?? "").replace(/\s+#.*$/, "").trim();
      if (command) found.push({ page, command });
    }
  }
  return found;
}

/** Splits a shell-like line into words, keeping "quoted words" together. */
function words(line: string): string[] {
  return [...line.matchAll(/"[^"]*"|\S+/g)].map((m) => m[0]);
}

describe("the documentation", () => {
  it("keeps the front door short", () => {
    const count = read("README.md").split(/\s+/).filter(Boolean).length;
    expect(count).toBeLessThanOrEqual(1500);
  });

  it.each(PAGES)("%s: every relative link and anchor resolves", (page) => {
    const broken: string[] = [];
    for (const link of relativeLinks(page)) {
      const [path = "", anchor] = link.split("#");
      const target = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(target)) {
        broken.push(`${link} (no file ${target})`);
        continue;
      }
      if (anchor && target.endsWith(".md") && !anchors(target).has(anchor)) broken.push(`${link} (no heading #${anchor} in ${target})`);
    }
    expect(broken).toEqual([]);
  });

  it("names only npm scripts that exist", () => {
    const scripts = Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>);
    const named = new Set(PAGES.flatMap((page) => [...read(page).matchAll(/npm run ([a-z][a-z0-9:-]*)/g)].map((m) => m[1] ?? "")));
    expect([...named].filter((name) => !scripts.includes(name))).toEqual([]);
  });

  // It runs the CLI's --help once per command shown (a Node start each): seconds alone, more on a loaded machine.
  it("shows operator commands the CLI has, with flags it takes", { timeout: 60_000 }, () => {
    const commands = cliCommands();
    expect(commands.length).toBeGreaterThan(10);
    const problems: string[] = [];
    const helpOf = new Map<string, string>();
    for (const { page, command } of commands) {
      const argv = words(command);
      const firstFlag = argv.findIndex((word) => word.startsWith("-"));
      const subcommand = (firstFlag === -1 ? argv : argv.slice(0, firstFlag)).filter((w) => !w.includes("…"));
      if (subcommand.length === 0) continue; // `npm run cairn -- --help`
      const key = subcommand.join(" ");
      let help = helpOf.get(key);
      if (help === undefined) {
        try {
          help = execFileSync(process.execPath, ["scripts/cairn.mjs", ...subcommand, "--help"], { encoding: "utf8" });
        } catch (error) {
          problems.push(`${page}: \`${command}\` — the CLI has no such command (${String((error as { stderr?: string }).stderr ?? error).trim().split("\n")[0]})`);
          help = "";
        }
        helpOf.set(key, help);
      }
      if (!help) continue;
      for (const flag of argv.filter((word) => /^--[a-z]/.test(word))) {
        if (!help.includes(flag)) problems.push(`${page}: \`${command}\` — ${key} does not take ${flag}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
