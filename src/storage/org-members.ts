import type { OrgMembers, OrgPerson } from "../domain/ports";

/** Bound per statement: D1 takes up to 100 bound parameters, one is the org. */
const CHUNK = 90;

type Row = { id: string; email: string; display_name: string };
const personOf = (row: Row): OrgPerson => ({ userId: row.id, email: row.email, name: row.display_name });

/**
 * The org's members by e-mail or by user id, as named reviewers and approvers are resolved (src/domain/org-settings.ts,
 * the review assignee route). Only members: an account of the deployment that is not in the org is not found, so a
 * reply never says whether an address has an account elsewhere.
 */
export function d1OrgMembers(directory: D1Database): OrgMembers {
  async function select(orgId: string, column: "u.id" | "u.email", values: readonly string[]): Promise<OrgPerson[]> {
    const people: OrgPerson[] = [];
    const unique = [...new Set(values)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      const { results } = await directory
        .prepare(`SELECT u.id, u.email, u.display_name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND ${column} IN (${part.map(() => "?").join(", ")})`)
        .bind(orgId, ...part)
        .all<Row>();
      people.push(...results.map(personOf));
    }
    return people;
  }
  return {
    byEmails: (orgId, emails) => (emails.length ? select(orgId, "u.email", emails.map((email) => email.trim().toLowerCase())) : Promise.resolve([])),
    byIds: (orgId, userIds) => (userIds.length ? select(orgId, "u.id", userIds) : Promise.resolve([])),
  };
}
