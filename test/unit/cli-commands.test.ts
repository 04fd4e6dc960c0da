import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli";

/**
 * The operator CLI's command tables and the argument errors it answers before it calls anything (no Worker, no
 * database: each case exits at parsing).
 */
type Table = Record<string, Record<string, unknown>>;
/** The CLI's modules are plain JavaScript (scripts/lib): loaded by path, read as data. */
const load = async (file: string) => (await import(new URL(`../../scripts/lib/${file}`, import.meta.url).href)) as Record<string, (...args: unknown[]) => Table>;

const noop = () => {};
async function tables(): Promise<Record<string, Table>> {
  const { UsageError } = await load("wrangler.mjs");
  const byFile: Record<string, [string, unknown[]]> = {
    "notification-commands.mjs": ["notificationCommands", [noop]],
    "org-data-commands.mjs": ["orgDataCommands", [noop]],
    "output-commands.mjs": ["outputCommands", [noop]],
    "schedule-commands.mjs": ["scheduleCommands", [noop, UsageError]],
    "share-commands.mjs": ["shareCommands", [noop, noop, noop]],
    "source-commands.mjs": ["sourceCommands", [noop]],
    "sso-commands.mjs": ["ssoCommands", [noop]],
    "webhook-commands.mjs": ["webhookCommands", [noop]],
  };
  const out: Record<string, Table> = {};
  for (const [file, [name, args]] of Object.entries(byFile)) {
    const make = (await load(file))[name];
    if (!make) throw new Error(`${file} has no ${name}`);
    out[file] = make(...args);
  }
  return out;
}

const KEYS = new Set(["usage", "summary", "flags", "required", "positionals", "details", "run"]);

describe("operator CLI command tables", () => {
  it("declare only the fields the CLI reads (a misspelt field, as `positional` once was, is silently ignored)", async () => {
    const all = await tables();
    // Every command table of the CLI is read here (a new one must be added above).
    expect(Object.keys(all).sort()).toEqual(readdirSync(new URL("../../scripts/lib/", import.meta.url)).filter((file) => file.endsWith("-commands.mjs")).sort());
    for (const [table, commands] of Object.entries(all)) {
      for (const [name, command] of Object.entries(commands)) {
        expect(Object.keys(command).filter((key) => !KEYS.has(key)), `${table} "${name}"`).toEqual([]);
        // Each positional is named in the usage line, in upper case, before any flag.
        const positionals = (command.positionals ?? []) as string[];
        const beforeFlags = String(command.usage).split(/ \[?--/)[0]?.split(" ").slice(name.split(" ").length) ?? [];
        expect(beforeFlags.filter((word) => /^\[?[A-Z]/.test(word)).length, `${table} "${name}" usage vs positionals`).toBe(positionals.length);
      }
    }
  });
});

describe("a webhook's or channel's URL has one name on every face", () => {
  it("webhook add takes the URL first, as REST's url; --url stays the server", async () => {
    const help = await runCli("webhook", "add", "--help");
    expect(help.stdout).toMatch(/webhook add HTTPS-URL --org SLUG --events/);
    expect(help.stdout).not.toMatch(/--endpoint/);
    const missing = await runCli("webhook", "add", "--org", "acme", "--events", "plan.completed");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Needs the webhook's URL, as the first argument/);
    const twice = await runCli("webhook", "add", "https://hooks.example.com/a", "--endpoint", "https://hooks.example.com/b", "--org", "acme", "--events", "plan.completed");
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/Give the URL once/);
  });

  it("org channels add takes a Slack channel's URL first, and an e-mail channel's --address only", async () => {
    const missing = await runCli("org", "channels", "add", "--org", "acme", "--kind", "slack", "--events", "plan.completed");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Needs the channel's incoming-webhook URL, as the first argument/);
    const mixed = await runCli("org", "channels", "add", "https://hooks.example.com/x", "--org", "acme", "--kind", "email", "--address", "a@example.com", "--events", "plan.completed");
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/An email channel takes --address EMAIL, not a URL/);
  });
});

describe("org settings --locale", () => {
  it("is in the command's help, and a tag that is not BCP 47, or --locale with --unset-locale, is refused before the database is asked", async () => {
    const help = await runCli("org", "settings", "--help");
    expect(help.stdout).toContain("[--locale TAG | --unset-locale]");
    expect(help.stdout).toContain("US Letter");
    const bad = await runCli("org", "settings", "--org", "acme", "--locale", "not a locale");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--locale is a BCP 47 language tag such as en-US, en-GB or ja-JP (got "not a locale"); nothing was changed.');
    const both = await runCli("org", "settings", "--org", "acme", "--locale", "en-US", "--unset-locale");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Give --locale or --unset-locale, not both");
  });
});
