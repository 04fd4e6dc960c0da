/**
 * Org export, import and erasure for the operator CLI. Plans and search
 * sessions live in Durable Objects, which only the Worker reaches, so these go
 * through the Worker's admin routes (/api/v1/org/export, /org/import, /org):
 *   - locally, against a `wrangler dev` started on the same local state (or a
 *     running one given with --url),
 *   - with --remote, against the deployment (its URL from cairn.deploy.json, or --url).
 * The credential is a short-lived org:admin API key of an account made for the
 * one command (an admin of the org meanwhile, so an org with no admin yet can
 * be imported into), written directly to D1 and removed afterwards, whatever
 * happened. An export leaves that account and its key out.
 */
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { generateApiKey } from "../../src/auth/api-keys.ts";
import { newId } from "../../src/domain/ids.ts";
import { OPERATOR_ACCOUNT_PASSWORD } from "../../src/domain/org-data/members.ts";
import { runningDevServer, startDevServer } from "./dev-server.mjs";
import { normalizeSlug } from "./operators.mjs";
import { placeMembers, readMembers, undoPlacement } from "./restore-members.mjs";
import { OperatorError, projectRoot, runSql, runSqlAll, sqlInt, sqlString, UsageError } from "./wrangler.mjs";

/**
 * The operator at the command line holds the deployment's database: a person, not an assistant. The temporary key
 * carries the person scope plans:approve, so the commands that are a person's decision (a share link, an outside
 * e-mail recipient, a schedule where approval applies) go through.
 */
const KEY_SCOPES = ["research:read", "research:write", "org:admin", "plans:approve"];

/**
 * The deployment's public URL as the local configuration names it (wrangler.toml's PUBLIC_URL, what `npm start`
 * serves), or null: a record that keeps a link (a notification channel's) names it, not the temporary server a
 * local command starts on a free port, which is gone when the command ends.
 */
export function configuredPublicUrl(toml = readFileSync(path.join(projectRoot, "wrangler.toml"), "utf8")) {
  const vars = toml.split(/^\[(?!vars\])/m)[0] ?? "";
  return /^PUBLIC_URL\s*=\s*"([^"]+)"\s*$/m.exec(vars)?.[1] ?? null;
}

/**
 * The Worker to talk to: --url, the deployment's recorded URL (remote), the local server already running on the
 * same state (`npm start`), or a local `wrangler dev` started now. `keepLinks`: a server started now answers as the
 * configured PUBLIC_URL, so what it stores links there (a running server already answers as its own).
 */
export async function workerFor(target, url, { keepLinks = false } = {}) {
  if (url) return { url: url.replace(/\/$/, ""), stop: async () => {} };
  if (target.remote) {
    const settings = path.join(projectRoot, "cairn.deploy.json");
    const recorded = existsSync(settings) ? JSON.parse(readFileSync(settings, "utf8")).url : null;
    if (!recorded) throw new UsageError("No deployment URL recorded in cairn.deploy.json: pass --url https://<your-worker>.");
    return { url: recorded.replace(/\/$/, ""), stop: async () => {} };
  }
  const running = await runningDevServer(target);
  if (running) {
    process.stderr.write(`Through the local server already running on this state: ${running}\n`);
    return { url: running, stop: async () => {} };
  }
  const publicUrl = keepLinks ? configuredPublicUrl() : null;
  const server = await startDevServer({ persistTo: target.persistTo, timeoutMs: 90_000, ...(publicUrl ? { vars: { PUBLIC_URL: publicUrl } } : {}) });
  // `started`: this command runs the Worker itself, so work it queues runs only while the command waits.
  return { url: server.url, stop: () => server.stop(), started: true };
}

/**
 * Runs `fn(key)` with a temporary org:admin key of one of the org's admins, deleted afterwards (webhook
 * commands: what they create names that admin). Export, import and erasure use `withOperatorKey`.
 */
export async function withAdminKey(slug, target, fn, scopes = KEY_SCOPES) {
  const [admin] = await runSql(
    `SELECT o.id AS org_id, m.user_id FROM orgs o JOIN memberships m ON m.org_id = o.id AND m.role = 'admin'
      WHERE o.slug = ${sqlString(slug)} ORDER BY m.created_at LIMIT 1`,
    target,
  );
  if (!admin) {
    const [org] = await runSql(`SELECT id FROM orgs WHERE slug = ${sqlString(slug)}`, target);
    throw new OperatorError(org ? `Org "${slug}" has no admin: add one first (npm run cairn -- user add --org ${slug} … --role admin).` : `No org with slug "${slug}".`, { code: "not_found" });
  }
  const { key, prefix, hash } = await generateApiKey();
  const id = newId("key");
  await runSql(
    `INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at)
     VALUES (${sqlString(id)}, ${sqlString(admin.org_id)}, ${sqlString(admin.user_id)}, 'cairn CLI (temporary)', ${sqlString(prefix)}, ${sqlString(hash)}, ${sqlString(JSON.stringify(scopes))}, ${sqlInt(Date.now())})`,
    target,
  );
  try {
    return await fn(key);
  } finally {
    await runSql(`DELETE FROM api_keys WHERE id = ${sqlString(id)}`, target).catch(() => {});
  }
}

/**
 * Runs `fn(key, orgId)` with a temporary org:admin key of an account made for this command (no one can
 * sign in to it), which is an admin of the org meanwhile; the key, the membership and the account are
 * removed afterwards.
 */
export async function withOperatorKey(slug, target, fn) {
  const [org] = await runSql(`SELECT id FROM orgs WHERE slug = ${sqlString(slug)}`, target);
  if (!org) throw new OperatorError(`No org with slug "${slug}".`, { code: "not_found" });
  const { key, prefix, hash } = await generateApiKey();
  const keyId = newId("key");
  const userId = newId("usr");
  const now = Date.now();
  await runSqlAll(
    `INSERT INTO users (id, email, display_name, password_hash, created_at)
       VALUES (${sqlString(userId)}, ${sqlString(`${userId}@operator-cli.invalid`)}, 'Cairn operator CLI (temporary)', ${sqlString(OPERATOR_ACCOUNT_PASSWORD)}, ${sqlInt(now)});
     INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (${sqlString(org.id)}, ${sqlString(userId)}, 'admin', ${sqlInt(now)});
     INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at)
       VALUES (${sqlString(keyId)}, ${sqlString(org.id)}, ${sqlString(userId)}, 'cairn CLI (temporary)', ${sqlString(prefix)}, ${sqlString(hash)}, ${sqlString(JSON.stringify(KEY_SCOPES))}, ${sqlInt(now)})`,
    target,
  );
  try {
    return await fn(key, org.id);
  } finally {
    await runSqlAll(
      `DELETE FROM api_keys WHERE id = ${sqlString(keyId)};
       DELETE FROM memberships WHERE user_id = ${sqlString(userId)};
       DELETE FROM users WHERE id = ${sqlString(userId)}`,
      target,
    ).catch(() => {});
  }
}

export async function failure(response, what) {
  const text = await response.text();
  let detail = text.slice(0, 500);
  try {
    detail = JSON.parse(text).detail ?? detail;
  } catch {
    // not problem+json
  }
  return new OperatorError(`${what} failed (HTTP ${response.status}): ${detail}`);
}

/**
 * Writes the org's export to `out`, streamed, and checks that it is complete (its end line).
 * @returns {Promise<{ file: string, bytes: number, counts: Record<string, number> }>}
 */
export async function exportOrgToFile({ org, out, toolCalls = false, url, ...target }) {
  const slug = normalizeSlug(org);
  if (!out) throw new UsageError("--out FILE is required.");
  const worker = await workerFor(target, url);
  try {
    return await withOperatorKey(slug, target, async (key) => {
      const response = await fetch(`${worker.url}/api/v1/org/export${toolCalls ? "?toolCalls=true" : ""}`, { headers: { authorization: `Bearer ${key}` } });
      if (!response.ok || !response.body) throw await failure(response, "Export");
      const file = path.resolve(out);
      const sink = createWriteStream(file);
      let tail = "";
      let bytes = 0;
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        bytes += chunk.byteLength;
        tail = (tail + decoder.decode(chunk, { stream: true })).slice(-65_536);
        if (!sink.write(chunk)) await new Promise((resolve) => sink.once("drain", resolve));
      }
      await new Promise((resolve, reject) => sink.end((error) => (error ? reject(error) : resolve())));
      const last = tail.trimEnd().split("\n").at(-1) ?? "";
      let end;
      try {
        end = JSON.parse(last);
      } catch {
        end = null;
      }
      if (end?.type !== "end") throw new OperatorError(`The export stopped before its end: ${file} is incomplete. Run the export again.`);
      return { file, bytes, counts: end.counts };
    });
  } finally {
    await worker.stop();
  }
}

/**
 * Imports an export file into an existing org with no research yet (it needs no admin). The Worker
 * restores the memberships of people already in the org; with `restoreMembers`, the file's members are
 * first placed in the org by e-mail (see restore-members.mjs), and the answer lists whom that matched
 * and whom it created. `orgHasAdmin` says whether the org has an admin afterwards.
 */
export async function importOrgFromFile({ org, input, url, restoreMembers = false, ...target }) {
  const slug = normalizeSlug(org);
  if (!input || !existsSync(input) || !statSync(input).isFile()) throw new UsageError(`--in must name an export file (${input ?? "missing"}).`);
  const members = restoreMembers ? await readMembers(input) : [];
  const worker = await workerFor(target, url);
  let orgId = "";
  try {
    const result = await withOperatorKey(slug, target, async (key, id) => {
      orgId = id;
      const placed = restoreMembers ? await placeMembers(id, members, target) : null;
      try {
        const response = await fetch(`${worker.url}/api/v1/org/import`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
          body: Readable.toWeb(createReadStream(path.resolve(input))),
          duplex: "half",
        });
        if (!response.ok) throw await failure(response, "Import");
        const imported = (await response.json()).imported;
        if (!placed) return imported;
        return { ...imported, restoredByEmail: { matched: placed.matched, created: placed.created, alreadyMembers: placed.alreadyMembers } };
      } catch (error) {
        // The import changed nothing: neither does the placement.
        if (placed) await undoPlacement(id, placed.undo, target);
        throw error;
      }
    });
    const [admins] = await runSql(
      `SELECT COUNT(*) AS n FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = ${sqlString(orgId)} AND m.role = 'admin' AND u.password_hash <> ${sqlString(OPERATOR_ACCOUNT_PASSWORD)}`,
      target,
    );
    return { ...result, orgHasAdmin: Number(admins?.n ?? 0) > 0 };
  } finally {
    await worker.stop();
  }
}

/** Erases the org and everything of it (the Worker erases rows, objects, grants and sessions). */
export async function deleteOrg({ org, url, ...target }) {
  const slug = normalizeSlug(org);
  const worker = await workerFor(target, url);
  try {
    return await withOperatorKey(slug, target, async (key) => {
      const response = await fetch(`${worker.url}/api/v1/org`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ confirm: slug }),
      });
      if (!response.ok) throw await failure(response, "Erasure");
      return (await response.json()).erased;
    });
  } finally {
    await worker.stop();
  }
}
