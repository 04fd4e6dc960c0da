/**
 * Notifications from the operator CLI: a member's choice (/api/v1/me/notifications, as that member) and the org's
 * channels (/api/v1/org/notification-channels, as an admin), through the same Worker as the webhook commands.
 * The credential is a temporary API key of the person concerned, written to D1 and removed afterwards.
 */
import { generateApiKey } from "../../src/auth/api-keys.ts";
import { newId } from "../../src/domain/ids.ts";
import { withAdminKey } from "./org-data.mjs";
import { callWorker } from "./worker-call.mjs";
import { OperatorError, runSql, sqlInt, sqlString, UsageError } from "./wrangler.mjs";

const ID = /^[a-z]{2,10}_[0-9a-z]{25}$/;

/** Runs `fn(key)` with a temporary key of the org's member with this e-mail address (research scopes), deleted afterwards. */
async function withMemberKey(slug, email, target, fn) {
  const [member] = await runSql(
    `SELECT m.org_id, m.user_id FROM memberships m JOIN orgs o ON o.id = m.org_id JOIN users u ON u.id = m.user_id
      WHERE o.slug = ${sqlString(slug)} AND u.email = ${sqlString(String(email).toLowerCase())}`,
    target,
  );
  if (!member) throw new OperatorError(`No member "${email}" in org "${slug}".`, { code: "not_found" });
  const { key, prefix, hash } = await generateApiKey();
  const id = newId("key");
  await runSql(
    `INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at)
     VALUES (${sqlString(id)}, ${sqlString(member.org_id)}, ${sqlString(member.user_id)}, 'cairn CLI (temporary)', ${sqlString(prefix)}, ${sqlString(hash)}, ${sqlString(JSON.stringify(["research:read", "research:write"]))}, ${sqlInt(Date.now())})`,
    target,
  );
  try {
    return await fn(key);
  } finally {
    await runSql(`DELETE FROM api_keys WHERE id = ${sqlString(id)}`, target).catch(() => {});
  }
}

// A channel keeps the origin it was added on for its messages' links: the deployment's, not a temporary server's.
const call = (options, withKey, method, route, body) =>
  callWorker(options, { what: `${method} ${route}`, method, path: route, body, withKey, keepLinks: true });

/** `a,b` as a list; `none` for an empty one (turning e-mail off). */
function eventList(events) {
  if (String(events).trim() === "none") return [];
  const list = String(events ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError("--events needs event names, comma-separated (or none).");
  return list;
}

function checkedId(id) {
  if (!id || !ID.test(id)) throw new UsageError(`--id must be a channel id as \`org channels list\` shows it (${id ?? "missing"}).`);
  return id;
}

const asMember = (member) => (slug, target, fn) => withMemberKey(slug, member, target, fn);

export const showPreferences = ({ member, ...options }) => call(options, asMember(member), "GET", "/me/notifications");
export const setPreferences = ({ member, events, ...options }) => call(options, asMember(member), "PUT", "/me/notifications", { email: eventList(events) });

export const listChannels = (options) => call(options, withAdminKey, "GET", "/org/notification-channels");
export function addChannel({ kind, endpoint, address, events, ...options }) {
  if (kind !== "slack" && kind !== "email") throw new UsageError("--kind is slack or email.");
  if (kind === "slack" && !endpoint) throw new UsageError("A slack channel needs its incoming-webhook URL, as the first argument.");
  if (kind === "email" && !address) throw new UsageError("An email channel needs --address.");
  return call(options, withAdminKey, "POST", "/org/notification-channels", { kind, ...(kind === "slack" ? { url: endpoint } : { address }), events: eventList(events) });
}
export const removeChannel = ({ id, ...options }) => call(options, withAdminKey, "DELETE", `/org/notification-channels/${checkedId(id)}`);
export const testChannel = ({ id, ...options }) => call(options, withAdminKey, "POST", `/org/notification-channels/${checkedId(id)}/test`);
