/**
 * `import --restore-members`: the operator, who holds authority over the whole
 * deployment, places the export's members in the org by e-mail before the
 * Worker imports it; the Worker's import then restores them as people already
 * in the org (an org admin's import never adds anyone: see
 * src/domain/org-data/members.ts, whose policy decides here too). Written
 * straight to D1, and taken back if the import fails.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { newId } from "../../src/domain/ids.ts";
import { IMPORTED_ACCOUNT_PASSWORD, placeForOperator } from "../../src/domain/org-data/members.ts";
import { OperatorError, runSql, runSqlAll, sqlInt, sqlString } from "./wrangler.mjs";

/** As the Worker's format check (src/domain/org-data/format.ts). */
const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,200}$/;
const ROLES = ["member", "admin"];
/** E-mails per lookup and members per write: each wrangler call stays well under its command size (100 kB). */
const CHUNK = 40;

/**
 * The member records of an export file (they follow its header), checked as
 * the Worker checks them; the first record of an e-mail counts.
 * @returns {Promise<Array<{ email: string, displayName: string, role: "member" | "admin", joinedAt: number }>>}
 */
export async function readMembers(file) {
  const lines = createInterface({ input: createReadStream(path.resolve(file), { encoding: "utf8" }), crlfDelay: Number.POSITIVE_INFINITY });
  const members = new Map();
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (!line.trim()) continue;
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        throw new OperatorError(`${file}: line ${lineNumber} is not JSON; nothing was imported.`);
      }
      if (lineNumber === 1) {
        if (record?.type !== "header" || record.format !== "cairn-org-export") throw new OperatorError(`${file} is not a Cairn org export (its first line is no export header); nothing was imported.`);
        continue;
      }
      if (record?.type !== "member") break;
      const email = typeof record.email === "string" ? record.email.toLowerCase() : "";
      if (!EMAIL.test(email) || !ROLES.includes(record.role)) throw new OperatorError(`${file}: line ${lineNumber} is not a valid member (e-mail and role member or admin); nothing was imported.`);
      if (members.has(email)) continue;
      const displayName = typeof record.displayName === "string" && record.displayName.trim() ? record.displayName.slice(0, 100) : email;
      members.set(email, { email, displayName, role: record.role, joinedAt: Number.isSafeInteger(record.joinedAt) && record.joinedAt > 0 ? record.joinedAt : 0 });
    }
  } finally {
    lines.close();
  }
  return [...members.values()];
}

const chunks = (list) => Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Places each member in the org: an existing account by its e-mail joins with the file's role, an unknown
 * e-mail gets an account without a usable password, a person already in the org is left as they are.
 * @returns {Promise<{ matched: object[], created: object[], alreadyMembers: string[], undo: { users: string[], memberships: string[] } }>}
 */
export async function placeMembers(orgId, members, target, now = Date.now()) {
  const found = new Map();
  for (const part of chunks(members)) {
    const rows = await runSql(
      `SELECT u.id, u.email, m.role FROM users u LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = ${sqlString(orgId)}
        WHERE u.email IN (${part.map((m) => sqlString(m.email)).join(", ")})`,
      target,
    );
    for (const row of rows) found.set(row.email, row);
  }
  const result = { matched: [], created: [], alreadyMembers: [], undo: { users: [], memberships: [] } };
  /** Per member to place: its statements, and the account it creates (if any). */
  const writes = [];
  for (const member of members) {
    const row = found.get(member.email);
    const placement = placeForOperator(member.role, row ? { userId: row.id } : null, row?.role ? { role: row.role } : null);
    const joined = sqlInt(member.joinedAt || now);
    if (placement.kind === "already_member") {
      result.alreadyMembers.push(member.email);
      continue;
    }
    const statements = [];
    let userId;
    let created = null;
    if (placement.kind === "created") {
      userId = created = newId("usr");
      statements.push(
        `INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (${sqlString(userId)}, ${sqlString(member.email)}, ${sqlString(member.displayName)}, ${sqlString(IMPORTED_ACCOUNT_PASSWORD)}, ${sqlInt(now)})`,
      );
      result.created.push({ email: member.email, role: placement.role });
    } else {
      userId = placement.userId;
      result.matched.push({ email: member.email, role: placement.role });
    }
    // RETURNING names only the memberships this run added, so an undo never takes one placed by someone else meanwhile.
    statements.push(
      `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (${sqlString(orgId)}, ${sqlString(userId)}, ${sqlString(placement.role)}, ${joined}) ON CONFLICT (org_id, user_id) DO NOTHING RETURNING user_id`,
    );
    writes.push({ statements, created });
  }
  try {
    // Each chunk is one batch: all of it is written, or none.
    for (const part of chunks(writes)) {
      const results = await runSqlAll(part.flatMap((w) => w.statements).join(";\n"), target);
      for (const rows of results) for (const row of rows) if (typeof row.user_id === "string") result.undo.memberships.push(row.user_id);
      for (const w of part) if (w.created) result.undo.users.push(w.created);
    }
  } catch (error) {
    await undoPlacement(orgId, result.undo, target);
    throw error;
  }
  return result;
}

/** Takes back what `placeMembers` added: its memberships, and the accounts it created that belong to no org now. */
export async function undoPlacement(orgId, undo, target) {
  for (const part of chunks(undo.memberships)) {
    await runSql(`DELETE FROM memberships WHERE org_id = ${sqlString(orgId)} AND user_id IN (${part.map(sqlString).join(", ")})`, target);
  }
  for (const part of chunks(undo.users)) {
    await runSql(`DELETE FROM users WHERE id IN (${part.map(sqlString).join(", ")}) AND NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = users.id)`, target);
  }
}
