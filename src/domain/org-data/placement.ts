/**
 * Where an org's records live. One D1 database, the directory ("DB"), holds
 * what every request needs whatever the org: orgs, people, credentials, the
 * tool-call log, webhooks, notifications and the search-session index. An org's research
 * (executions, the plan index, artifacts, deliverables, feedback, the
 * evidence ledger, its audit trail) lives in its home database: one of the
 * D1 bindings the deployment lists, chosen when the org is first used and
 * recorded in the directory (`orgs.home_database`). A deployment grows by
 * adding databases; an org moves by export and import into a new org placed
 * elsewhere. Pure functions: the adapter is src/platform/org-homes.ts.
 */

/** The binding of the directory database, and the home of every org unless the deployment lists others. */
export const DIRECTORY_DATABASE = "DB";

/** D1 tables of an org kept in the directory database; every other table of an org lives in its home. */
export const DIRECTORY_TABLES: ReadonlySet<string> = new Set([
  "orgs",
  "users",
  "memberships",
  "api_keys",
  "tool_call_log",
  "search_sessions",
  "webhook_subscriptions",
  "webhook_deliveries",
  "notification_preferences",
  "notification_channels",
  "notification_deliveries",
  "notification_daily_usage",
]);

export const livesInHome = (table: string): boolean => !DIRECTORY_TABLES.has(table);

const BINDING_NAME = /^[A-Z][A-Z0-9_]{0,62}$/;

/** At most this many home databases: D1 allows some thousands of bindings, an operator lists a handful. */
export const MAX_HOME_DATABASES = 64;

/**
 * The bindings new orgs may be placed in, from the `ORG_DATABASES` setting
 * ("DB,RESEARCH_DB_2", commas or spaces); unset or empty: the directory's own.
 * A database taken off the list keeps the orgs it holds and gets no new ones.
 * A malformed setting is an operator's mistake: it throws with what to fix.
 */
export function placementCandidates(setting: string | undefined): string[] {
  const names = (setting ?? "").split(/[\s,]+/).filter(Boolean);
  if (names.length === 0) return [DIRECTORY_DATABASE];
  const bad = names.filter((name) => !BINDING_NAME.test(name));
  if (bad.length) throw new Error(`ORG_DATABASES lists ${bad.map((n) => JSON.stringify(n)).join(", ")}: each entry must be a D1 binding name such as RESEARCH_DB_2.`);
  const unique = [...new Set(names)];
  if (unique.length > MAX_HOME_DATABASES) throw new Error(`ORG_DATABASES lists ${unique.length} databases; at most ${MAX_HOME_DATABASES}.`);
  return unique;
}

/**
 * The home of a new org: the candidate holding the fewest orgs (databases fill
 * evenly), ties to the one listed first. `orgsIn` counts the orgs each
 * database is home to; a database it does not name holds none.
 */
export function chooseHome(candidates: readonly string[], orgsIn: ReadonlyMap<string, number>): string {
  const [first, ...rest] = candidates;
  if (first === undefined) throw new Error("No database to place an org in.");
  let best = first;
  for (const candidate of rest) if ((orgsIn.get(candidate) ?? 0) < (orgsIn.get(best) ?? 0)) best = candidate;
  return best;
}

/** Whether a name read from the directory can be a binding at all (a damaged row never indexes `env` freely). */
export const isBindingName = (name: string): boolean => BINDING_NAME.test(name);
