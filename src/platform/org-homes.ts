import { CairnError } from "../domain/errors";
import { chooseHome, DIRECTORY_DATABASE, isBindingName, placementCandidates } from "../domain/org-data/placement";
import type { Env } from "../env";

/**
 * The org → database directory (policy: src/domain/org-data/placement.ts).
 * An org's home never changes once chosen (moving is export + import into a
 * new org), so each isolate remembers it for good, bounded like the other
 * isolate caches: a warm call pays nothing, a cold one one directory read.
 */
const homes = new Map<string, string>();
const REMEMBERED_HOMES = 10_000;

interface DirectoryRow {
  slug: string;
  name: string;
  created_at: number;
  home_database: string | null;
}

/** The D1 database holding `orgId`'s research, placing the org first if it is new. */
export async function homeDatabase(env: Env, orgId: string): Promise<D1Database> {
  return bindingOf(env, await homeOf(env, orgId));
}

/** The binding name of `orgId`'s home, placing the org first if it is new; a name this deployment does not bind throws. */
export async function homeName(env: Env, orgId: string): Promise<string> {
  const name = await homeOf(env, orgId);
  bindingOf(env, name);
  return name;
}

async function homeOf(env: Env, orgId: string): Promise<string> {
  const known = homes.get(orgId);
  if (known !== undefined) return known;
  const name = await resolveHome(env, orgId);
  if (homes.size >= REMEMBERED_HOMES) homes.clear();
  homes.set(orgId, name);
  return name;
}

/** An org erased: its id is never resolved from memory again. */
export function forgetHome(orgId: string): void {
  homes.delete(orgId);
}

/** A D1 binding of this Worker by name; a name the deployment does not bind is a configuration error, said plainly. */
export function bindingOf(env: Env, name: string): D1Database {
  if (name === DIRECTORY_DATABASE) return env.DB;
  const value = isBindingName(name) ? (env as unknown as Record<string, unknown>)[name] : undefined;
  if (!isD1(value)) {
    console.error(JSON.stringify({ level: "error", message: "org home database not bound", binding: name }));
    throw new CairnError("internal", `This organization's research is kept in the database bound as ${name}, which this deployment does not bind.`);
  }
  return value;
}

function isD1(value: unknown): value is D1Database {
  return typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function";
}

async function resolveHome(env: Env, orgId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT slug, name, created_at, home_database FROM orgs WHERE id = ?").bind(orgId).first<DirectoryRow>();
  if (!row) throw new CairnError("not_found", "This organization does not exist (it may have been erased).");
  const home = row.home_database ?? (await place(env, orgId));
  if (home !== DIRECTORY_DATABASE) {
    // The home keeps its own copy of the org row: its tables' foreign keys name the org. Idempotent.
    await bindingOf(env, home)
      .prepare("INSERT INTO orgs (id, slug, name, created_at, home_database) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(orgId, row.slug, row.name, row.created_at, home)
      .run();
  }
  return home;
}

/**
 * Chooses a new org's home and records it. The directory is the one writer:
 * `COALESCE` keeps whichever choice landed first, so two isolates placing the
 * same org at once agree on the answer.
 */
async function place(env: Env, orgId: string): Promise<string> {
  const candidates = placementCandidates(env.ORG_DATABASES);
  for (const candidate of candidates) bindingOf(env, candidate);
  const { results } = await env.DB.prepare("SELECT home_database AS home, COUNT(*) AS n FROM orgs WHERE home_database IS NOT NULL GROUP BY home_database").all<{
    home: string;
    n: number;
  }>();
  const choice = chooseHome(candidates, new Map(results.map((r) => [r.home, r.n])));
  const placed = await env.DB.prepare("UPDATE orgs SET home_database = COALESCE(home_database, ?) WHERE id = ? RETURNING home_database")
    .bind(choice, orgId)
    .first<{ home_database: string }>();
  if (!placed) throw new CairnError("not_found", "This organization does not exist (it may have been erased).");
  console.log(JSON.stringify({ level: "info", message: "org placed", orgId, home: placed.home_database }));
  return placed.home_database;
}
