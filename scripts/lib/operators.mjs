/**
 * Operator actions on orgs, users and API keys, as SQL through wrangler (see
 * wrangler.mjs), with the validation of what an operator types. Each action
 * takes `{ remote, persistTo }` (plus `config`, a wrangler configuration path)
 * and is safe to repeat.
 */
import { randomInt } from "node:crypto";
// These modules import nothing, so Node loads them directly (type stripping).
import { generateApiKey } from "../../src/auth/api-keys.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "../../src/auth/password.ts";
import { newId } from "../../src/domain/ids.ts";
import { canonicalLocaleTag } from "../../src/domain/locale-tag.ts";
import { isBindingName } from "../../src/domain/org-data/placement.ts";
import { editSourcePolicy } from "../../src/domain/sources/source-policy.ts";
import { configuredDatabases, OperatorError, runSql, runSqlAll, sqlInt, sqlString, UsageError } from "./wrangler.mjs";

/** Must match `SCOPES` in src/domain/scopes.ts (the e2e test checks that they agree). */
export const SCOPES = Object.freeze(["research:read", "research:write", "org:admin", "plans:approve"]);
/** Scopes a key gets when none are asked for (src/domain/scopes.ts `DEFAULT_SCOPES`). */
export const DEFAULT_SCOPES = Object.freeze(["research:read", "research:write"]);
export const ROLES = Object.freeze(["member", "admin"]);

// ---------------------------------------------------------------------------
// Validation

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

function requireText(value, label, max) {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) throw new UsageError(`${label} must not be empty.`);
  if (text.length > max) throw new UsageError(`${label} must be at most ${max} characters.`);
  if (CONTROL_CHARS.test(text)) throw new UsageError(`${label} must not contain control characters.`);
  return text;
}

/** @param {unknown} slug */
export function normalizeSlug(slug) {
  const text = typeof slug === "string" ? slug.trim() : "";
  if (!SLUG_PATTERN.test(text)) {
    throw new UsageError(`Invalid org slug ${JSON.stringify(slug)}: use 1–40 lower-case letters, digits and inner hyphens (e.g. "acme-research").`);
  }
  return text;
}

/** Trimmed and lower-cased, as stored. @param {unknown} email */
export function normalizeEmail(email) {
  const text = typeof email === "string" ? email.trim().toLowerCase() : "";
  if (text.length > 254 || !EMAIL_PATTERN.test(text)) throw new UsageError(`Invalid e-mail address ${JSON.stringify(email)}.`);
  return text;
}

/** @param {unknown} role */
export function normalizeRole(role) {
  if (!ROLES.includes(role)) throw new UsageError(`Invalid role ${JSON.stringify(role)}: use one of ${ROLES.join(", ")}.`);
  return role;
}

/**
 * Accepts an array or a comma/space separated string; returns the known scopes,
 * de-duplicated, in canonical order. Unknown scopes throw.
 * @param {string | string[] | undefined} scopes
 */
export function normalizeScopes(scopes) {
  if (scopes === undefined || scopes === null) return [...DEFAULT_SCOPES];
  const list = (Array.isArray(scopes) ? scopes : String(scopes).split(/[\s,]+/)).map((s) => String(s).trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError(`No scopes given; choose from ${SCOPES.join(", ")}.`);
  const unknown = list.filter((s) => !SCOPES.includes(s));
  if (unknown.length > 0) throw new UsageError(`Unknown scope(s) ${unknown.join(", ")}; choose from ${SCOPES.join(", ")}.`);
  return SCOPES.filter((s) => list.includes(s));
}

function checkPassword(password) {
  if (typeof password !== "string" || password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new UsageError(`Passwords must be ${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters long.`);
  }
  return password;
}

const PASSWORD_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";

/** A strong random password: four groups of six unambiguous characters (≈ 137 bits). */
export function generatePassword() {
  const groups = [];
  for (let g = 0; g < 4; g++) {
    let group = "";
    for (let i = 0; i < 6; i++) group += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}

const parseScopes = (text) => {
  try {
    const value = JSON.parse(String(text));
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
};

/**
 * The database target of an action: `{ remote, persistTo, config }` may be given
 * as the second argument or inside the first (`createOrg({ slug, name, persistTo })`).
 */
function targetOf(input, options) {
  const pick = ({ remote, persistTo, config } = {}) => Object.fromEntries(Object.entries({ remote, persistTo, config }).filter(([, v]) => v !== undefined));
  return { ...pick(input ?? {}), ...pick(options ?? {}) };
}

function notFoundOrg(slug) {
  return new OperatorError(`No org with slug "${slug}". List orgs with \`npm run cairn -- org list\`.`, { code: "not_found" });
}

// ---------------------------------------------------------------------------
// Operator actions. Each takes `{ remote, persistTo }` (plus `config`, a
// wrangler.toml path, for tests) and is safe to repeat.

/**
 * Creates an org, or returns the existing one with that slug (its name is left as it is).
 * @param {{ slug: string, name: string, database?: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ id: string, slug: string, name: string, createdAt: number, database: string | null, created: boolean }>}
 */
export async function createOrg(input, options = {}) {
  const { slug, name, database } = input ?? {};
  const target = targetOf(input, options);
  const s = normalizeSlug(slug);
  const n = requireText(name, "Org name", 100);
  if (database !== undefined) {
    if (!isBindingName(String(database))) throw new UsageError(`--database must be a D1 binding name such as RESEARCH_DB_2 (got "${String(database).slice(0, 70)}").`);
    // An org placed in a database the Worker does not bind could not be used at all.
    const bound = configuredDatabases(target.config);
    if (!bound.includes(database)) throw new UsageError(`--database ${database}: the configuration binds ${bound.join(", ")}; declare the database there first.`);
  }
  const id = newId("org");
  const now = Date.now();
  // No database: the Worker places the org among ORG_DATABASES when it is first used.
  const home = database === undefined ? "NULL" : sqlString(database);
  const [row] = await runSql(
    `INSERT INTO orgs (id, slug, name, created_at, home_database) VALUES (${sqlString(id)}, ${sqlString(s)}, ${sqlString(n)}, ${sqlInt(now)}, ${home})
       ON CONFLICT(slug) DO NOTHING;
     SELECT id, slug, name, created_at, home_database FROM orgs WHERE slug = ${sqlString(s)}`,
    target,
  );
  if (!row) throw new OperatorError(`Creating org "${s}" failed: the row is missing afterwards.`);
  return {
    id: String(row.id),
    slug: String(row.slug),
    name: String(row.name),
    createdAt: Number(row.created_at),
    database: row.home_database === null ? null : String(row.home_database),
    created: row.id === id,
  };
}

/**
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<{ id: string, slug: string, name: string, createdAt: number, database: string | null, members: number, admins: number, activeKeys: number }>>}
 */
export async function listOrgs(options = {}) {
  const rows = await runSql(
    `SELECT o.id, o.slug, o.name, o.created_at, o.home_database,
            (SELECT COUNT(*) FROM memberships m WHERE m.org_id = o.id) AS members,
            (SELECT COUNT(*) FROM memberships m WHERE m.org_id = o.id AND m.role = 'admin') AS admins,
            (SELECT COUNT(*) FROM api_keys k WHERE k.org_id = o.id AND k.revoked_at IS NULL) AS active_keys
       FROM orgs o ORDER BY o.slug`,
    options,
  );
  return rows.map((r) => ({
    id: String(r.id),
    slug: String(r.slug),
    name: String(r.name),
    createdAt: Number(r.created_at),
    database: r.home_database === null ? null : String(r.home_database),
    members: Number(r.members),
    admins: Number(r.admins),
    activeKeys: Number(r.active_keys),
  }));
}

/**
 * Adds a user to an org (creating the user if the e-mail is new) with the given
 * role, or changes the role of an existing membership.
 *
 * Passwords: a new user gets `password`, or a generated one (returned in
 * `password`). An existing user's password is changed only with
 * `resetPassword: true` (to `password`, or a generated one); otherwise a
 * differing `password` is ignored and `passwordIgnored` is true.
 *
 * @param {{ org: string, email: string, name?: string, role: "member" | "admin", password?: string, resetPassword?: boolean }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ userId: string, email: string, displayName: string, orgId: string, orgSlug: string, role: string,
 *   previousRole: string | null, userCreated: boolean, password: string | null, passwordGenerated: boolean,
 *   passwordChanged: boolean, passwordIgnored: boolean }>}
 */
export async function addUser(input, options = {}) {
  const { org, email, name, role, password, resetPassword = false } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const mail = normalizeEmail(email);
  const r = normalizeRole(role);
  const displayName = name === undefined || name === null ? undefined : requireText(name, "Name", 100);
  if (password !== undefined && password !== null) checkPassword(password);

  const [orgRows, userRows, roleRows, ssoRows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT id, email, display_name, password_hash FROM users WHERE email = ${sqlString(mail)};
     SELECT m.role FROM memberships m JOIN orgs o ON o.id = m.org_id JOIN users u ON u.id = m.user_id
      WHERE o.slug = ${sqlString(slug)} AND u.email = ${sqlString(mail)};
     SELECT s.required FROM org_sso s JOIN orgs o ON o.id = s.org_id WHERE o.slug = ${sqlString(slug)}`,
    target,
  );
  const orgRow = orgRows?.[0];
  if (!orgRow) throw notFoundOrg(slug);
  const existing = userRows?.[0];
  const previousRole = roleRows?.[0] ? String(roleRows[0].role) : null;

  let newPassword = null;
  let passwordGenerated = false;
  let passwordIgnored = false;
  if (!existing) {
    if (displayName === undefined) throw new UsageError(`${mail} is a new user: a name is required (--name).`);
    newPassword = password ?? generatePassword();
    passwordGenerated = password === undefined || password === null;
  } else if (resetPassword) {
    newPassword = password ?? generatePassword();
    passwordGenerated = password === undefined || password === null;
  } else if (password !== undefined && password !== null) {
    passwordIgnored = !(await verifyPassword(password, String(existing.password_hash)));
  }

  const now = Date.now();
  const userId = existing ? String(existing.id) : newId("user");
  const statements = [];
  if (!existing) {
    statements.push(
      `INSERT INTO users (id, email, display_name, password_hash, created_at)
       VALUES (${sqlString(userId)}, ${sqlString(mail)}, ${sqlString(displayName)}, ${sqlString(await hashPassword(newPassword))}, ${sqlInt(now)})`,
    );
  } else if (newPassword !== null) {
    statements.push(`UPDATE users SET password_hash = ${sqlString(await hashPassword(newPassword))} WHERE id = ${sqlString(userId)}`);
  }
  // The org requires single sign-on: a password the operator gives here is a break-glass way in, kept open for this
  // member alone (password sign-in stays refused for the others) and written to the org's audit log.
  const breakGlass = Number(ssoRows?.[0]?.required ?? 0) === 1 && password !== undefined && password !== null && !passwordIgnored;
  statements.push(
    `INSERT INTO memberships (org_id, user_id, role, created_at${breakGlass ? ", password_break_glass_at" : ""})
     VALUES (${sqlString(orgRow.id)}, ${sqlString(userId)}, ${sqlString(r)}, ${sqlInt(now)}${breakGlass ? `, ${sqlInt(now)}` : ""})
     ON CONFLICT(org_id, user_id) DO UPDATE SET role = excluded.role${breakGlass ? ", password_break_glass_at = excluded.password_break_glass_at" : ""}`,
  );
  if (breakGlass) {
    statements.push(
      `INSERT INTO audit_log (id, org_id, actor_user_id, actor_client_id, action, target_type, target_id, detail, created_at)
       VALUES (${sqlString(newId("aud"))}, ${sqlString(orgRow.id)}, 'operator', 'cairn CLI', 'member.break_glass_password', 'user', ${sqlString(userId)}, ${sqlString(JSON.stringify({ email: mail, role: r }))}, ${sqlInt(now)})`,
    );
  }
  statements.push(
    `SELECT u.id, u.email, u.display_name, m.role FROM users u JOIN memberships m ON m.user_id = u.id
      WHERE u.id = ${sqlString(userId)} AND m.org_id = ${sqlString(orgRow.id)}`,
  );
  const [row] = await runSql(statements.join(";\n"), target);
  if (!row) throw new OperatorError(`Adding ${mail} to "${slug}" failed: the membership is missing afterwards.`);
  return {
    userId,
    email: String(row.email),
    displayName: String(row.display_name),
    orgId: String(orgRow.id),
    orgSlug: slug,
    role: String(row.role),
    previousRole,
    userCreated: !existing,
    password: passwordGenerated ? newPassword : null,
    passwordGenerated,
    passwordChanged: Boolean(existing) && newPassword !== null,
    passwordIgnored,
    breakGlass,
  };
}

/**
 * Members of an org.
 * @param {{ org: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<{ id: string, email: string, displayName: string, role: string, joinedAt: number }>>}
 */
export async function listUsers(input, options = {}) {
  const { org } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const [orgRows, rows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT u.id, u.email, u.display_name, m.role, m.created_at FROM memberships m
       JOIN users u ON u.id = m.user_id JOIN orgs o ON o.id = m.org_id
      WHERE o.slug = ${sqlString(slug)} ORDER BY u.email`,
    target,
  );
  if (!orgRows?.[0]) throw notFoundOrg(slug);
  return (rows ?? []).map((r) => ({ id: String(r.id), email: String(r.email), displayName: String(r.display_name), role: String(r.role), joinedAt: Number(r.created_at) }));
}

/**
 * Creates an API key acting as `userEmail` in `org`. The key itself is only in
 * the return value (the database keeps its SHA-256). `org:admin` needs an admin.
 * An active key with the same name in the org is refused, so a retried command
 * does not leave a second live key behind.
 * @param {{ org: string, userEmail: string, name: string, scopes?: string | string[] }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ id: string, key: string, prefix: string, name: string, scopes: string[], orgSlug: string, userEmail: string, createdAt: number }>}
 */
export async function createApiKey(input, options = {}) {
  const { org, userEmail, name, scopes } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const mail = normalizeEmail(userEmail);
  const keyName = requireText(name, "Key name", 100);
  const wanted = normalizeScopes(scopes);

  const [orgRows, userRows, sameName] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT u.id, m.role FROM users u
       LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = (SELECT id FROM orgs WHERE slug = ${sqlString(slug)})
      WHERE u.email = ${sqlString(mail)};
     SELECT k.id FROM api_keys k JOIN orgs o ON o.id = k.org_id
      WHERE o.slug = ${sqlString(slug)} AND k.name = ${sqlString(keyName)} AND k.revoked_at IS NULL`,
    target,
  );
  const orgRow = orgRows?.[0];
  if (!orgRow) throw notFoundOrg(slug);
  const user = userRows?.[0];
  if (!user) throw new OperatorError(`No user with e-mail ${mail}. Add one with \`npm run cairn -- user add\`.`, { code: "not_found" });
  if (!user.role) throw new OperatorError(`${mail} is not a member of "${slug}".`, { code: "forbidden" });
  for (const adminOnly of ["org:admin", "plans:approve"]) {
    if (wanted.includes(adminOnly) && user.role !== "admin") {
      throw new OperatorError(`Refused: the ${adminOnly} scope needs an admin of "${slug}", and ${mail} is a ${user.role}.`, { code: "forbidden" });
    }
  }
  if (sameName?.[0]) {
    throw new OperatorError(`"${slug}" already has an active key named "${keyName}" (${sameName[0].id}). Revoke it first or choose another name.`, {
      code: "conflict",
    });
  }

  const { key, prefix, hash } = await generateApiKey();
  const id = newId("key");
  const now = Date.now();
  const [row] = await runSql(
    `INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at, last_used_at, revoked_at)
     VALUES (${sqlString(id)}, ${sqlString(orgRow.id)}, ${sqlString(user.id)}, ${sqlString(keyName)}, ${sqlString(prefix)},
             ${sqlString(hash)}, ${sqlString(JSON.stringify(wanted))}, ${sqlInt(now)}, NULL, NULL);
     SELECT id FROM api_keys WHERE id = ${sqlString(id)}`,
    target,
  );
  if (!row) throw new OperatorError("Creating the key failed: the row is missing afterwards.");
  return { id, key, prefix, name: keyName, scopes: wanted, orgSlug: slug, userEmail: mail, createdAt: now };
}

/**
 * Keys of an org, oldest first, without their hashes.
 * @param {{ org: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<{ id: string, name: string, prefix: string, scopes: string[], userEmail: string, createdAt: number, lastUsedAt: number | null, revokedAt: number | null }>>}
 */
export async function listApiKeys(input, options = {}) {
  const { org } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const [orgRows, rows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT k.id, k.name, k.prefix, k.scopes, u.email, k.created_at, k.last_used_at, k.revoked_at
       FROM api_keys k JOIN orgs o ON o.id = k.org_id JOIN users u ON u.id = k.user_id
      WHERE o.slug = ${sqlString(slug)} ORDER BY k.created_at, k.id`,
    target,
  );
  if (!orgRows?.[0]) throw notFoundOrg(slug);
  const num = (v) => (v === null || v === undefined ? null : Number(v));
  return (rows ?? []).map((r) => ({
    id: String(r.id),
    name: String(r.name),
    prefix: String(r.prefix),
    scopes: parseScopes(r.scopes),
    userEmail: String(r.email),
    createdAt: Number(r.created_at),
    lastUsedAt: num(r.last_used_at),
    revokedAt: num(r.revoked_at),
  }));
}

/**
 * Revokes a key of an org. Revoking a revoked key changes nothing (`alreadyRevoked`).
 * @param {{ org: string, id: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ id: string, name: string, prefix: string, revokedAt: number, alreadyRevoked: boolean }>}
 */
export async function revokeApiKey(input, options = {}) {
  const { org, id } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const keyId = requireText(id, "Key id", 100);
  const now = Date.now();
  const [orgRows, , rows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     UPDATE api_keys SET revoked_at = ${sqlInt(now)}
      WHERE id = ${sqlString(keyId)} AND revoked_at IS NULL AND org_id = (SELECT id FROM orgs WHERE slug = ${sqlString(slug)});
     SELECT k.id, k.name, k.prefix, k.revoked_at FROM api_keys k JOIN orgs o ON o.id = k.org_id
      WHERE k.id = ${sqlString(keyId)} AND o.slug = ${sqlString(slug)}`,
    target,
  );
  if (!orgRows?.[0]) throw notFoundOrg(slug);
  const row = rows?.[0];
  if (!row) throw new OperatorError(`No key with id "${keyId}" in org "${slug}". List them with \`npm run cairn -- key list --org ${slug}\`.`, { code: "not_found" });
  const revokedAt = Number(row.revoked_at);
  return { id: String(row.id), name: String(row.name), prefix: String(row.prefix), revokedAt, alreadyRevoked: revokedAt !== now };
}

export const PLAN_APPROVAL_MODES = Object.freeze(["required", "optional"]);
/** Who may share deliverables by link (src/domain/shares.ts SHARING_MODES). */
export const SHARING_MODES = Object.freeze(["members", "admins", "off"]);

/** A stored list of domains (a JSON array); what does not parse reads as empty, as the Worker reads it. */
function storedDomains(text) {
  try {
    const value = JSON.parse(String(text ?? "[]"));
    return Array.isArray(value) ? value.filter((entry) => typeof entry === "string") : [];
  } catch {
    return [];
  }
}

/**
 * An org's settings; with planApproval, sharing (who may share deliverables by link), locale (a BCP 47 tag, stored
 * canonical as REST stores it; unsetLocale: none) or a source-policy edit, changes them first. planApproval "required" makes
 * every new plan of the org wait for a person's approval unless create_research_plan says approval "optional".
 * The edit (block, unblock, prefer, unprefer: lists of domains) is checked by the same rules as the REST API and
 * the dashboard (src/domain/sources/source-policy.ts): normalized, bounded, never both blocked and preferred.
 */
export async function orgSettings(input, options = {}) {
  const { org, planApproval, sharing, locale, unsetLocale } = input ?? {};
  const edit = { block: input?.block ?? [], unblock: input?.unblock ?? [], prefer: input?.prefer ?? [], unprefer: input?.unprefer ?? [] };
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  if (planApproval !== undefined && !PLAN_APPROVAL_MODES.includes(planApproval)) {
    throw new UsageError(`--plan-approval is ${PLAN_APPROVAL_MODES.join(" or ")} (got "${String(planApproval).slice(0, 40)}").`);
  }
  if (sharing !== undefined && !SHARING_MODES.includes(sharing)) {
    throw new UsageError(`--sharing is ${SHARING_MODES.join(", ")} (got "${String(sharing).slice(0, 40)}").`);
  }
  if (locale !== undefined && unsetLocale) throw new UsageError("Give --locale or --unset-locale, not both; nothing was changed.");
  const canonicalLocale = locale === undefined ? undefined : canonicalLocaleTag(String(locale));
  if (canonicalLocale === null) {
    throw new UsageError(`--locale is a BCP 47 language tag such as en-US, en-GB or ja-JP (got "${String(locale).slice(0, 40)}"); nothing was changed.`);
  }
  const editsLocale = canonicalLocale !== undefined || unsetLocale === true;
  const editsPolicy = Object.values(edit).some((list) => list.length > 0);
  const where = `WHERE slug = ${sqlString(slug)}`;
  const select = `SELECT slug, plan_approval, source_blocked_domains, source_preferred_domains, sharing, locale FROM orgs ${where}`;
  let updates = "";
  if (editsPolicy) {
    const [current] = await runSql(select, target);
    if (!current) throw notFoundOrg(slug);
    const edited = editSourcePolicy({ blockedDomains: storedDomains(current.source_blocked_domains), preferredDomains: storedDomains(current.source_preferred_domains) }, edit);
    if (!edited.ok) {
      const flagOf = { unblock: "--unblock-domain", unprefer: "--unprefer-domain", "sourcePolicy.blockedDomains": "--block-domain", "sourcePolicy.preferredDomains": "--prefer-domain" };
      const named = edited.issues.map((issue) => {
        const flag = Object.entries(flagOf).find(([prefix]) => issue.path.startsWith(prefix))?.[1] ?? issue.path;
        return `${flag}: ${issue.message}`;
      });
      throw new UsageError(`nothing was changed: ${named.join("; ")}.`);
    }
    updates += `UPDATE orgs SET source_blocked_domains = ${sqlString(JSON.stringify(edited.policy.blockedDomains))}, source_preferred_domains = ${sqlString(JSON.stringify(edited.policy.preferredDomains))} ${where};\n`;
  }
  if (planApproval !== undefined) updates += `UPDATE orgs SET plan_approval = ${sqlString(planApproval)} ${where};\n`;
  if (sharing !== undefined) updates += `UPDATE orgs SET sharing = ${sqlString(sharing)} ${where};\n`;
  if (editsLocale) updates += `UPDATE orgs SET locale = ${canonicalLocale === undefined ? "NULL" : sqlString(canonicalLocale)} ${where};\n`;
  const results = await runSqlAll(`${updates}${select}`, target);
  const row = results[results.length - 1]?.[0];
  if (!row) throw notFoundOrg(slug);
  return {
    org: String(row.slug),
    planApproval: String(row.plan_approval),
    sourcePolicy: { blockedDomains: storedDomains(row.source_blocked_domains), preferredDomains: storedDomains(row.source_preferred_domains) },
    sharing: String(row.sharing),
    // As REST's settings: absent until one is set.
    ...(row.locale ? { locale: String(row.locale) } : {}),
    changed: planApproval !== undefined || sharing !== undefined || editsPolicy || editsLocale,
  };
}
