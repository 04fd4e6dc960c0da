import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "../../domain/scopes";
import { shortTime } from "./format";
import { Flash } from "./layout";
import type { ApiKeyRow, MemberRow } from "./queries";

/** Org admin: members and their roles, API keys, deleting the organization (webhooks: webhooks.tsx; settings: settings.tsx). */
export function Admin(props: {
  members: MemberRow[];
  keys: ApiKeyRow[];
  csrf: string;
  selfId: string;
  orgSlug: string;
  createdKey?: { name: string; key: string } | null;
  flash?: string | null;
  error?: string | null;
}) {
  return (
    <>
      <h1>Org admin</h1>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      {props.createdKey ? (
        <div class="card" id="new-key">
          <p>
            <strong>API key “{props.createdKey.name}” created.</strong> Copy it now: it is shown only once and Cairn keeps only its hash.
          </p>
          <p class="secret" id="new-key-value">
            {props.createdKey.key}
          </p>
        </div>
      ) : null}
      <p>
        <a href="/dashboard/admin/webhooks" id="webhooks-link">
          Webhooks →
        </a>{" "}
        <span class="muted">events to your own systems (plan stalled, review requested, completed, failed, budget spent, deliverable stored)</span>
      </p>
      <p>
        <a href="/dashboard/admin/notifications" id="notifications-link">
          Notification channels →
        </a>{" "}
        <span class="muted">Slack-compatible webhooks and e-mail addresses that hear of reviews, approvals, stalls, completions and changed sources</span>
      </p>
      <p>
        <a href="/dashboard/admin/settings" id="settings-link">
          Settings →
        </a>{" "}
        <span class="muted">whether new plans wait for approval; blocked and preferred source domains</span>
      </p>
      <p>
        <a href="/dashboard/admin/sso" id="sso-link">
          Single sign-on →
        </a>{" "}
        <span class="muted">sign your people in through your organization's OpenID Connect provider</span>
      </p>
      <h2>Members</h2>
      <div class="table-wrap">
        <table class="stack" id="members">
          <thead>
            <tr>
              <th>Member</th>
              <th>Role</th>
              <th>Joined</th>
              <th>Access</th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((m) => (
              <tr data-member={m.email}>
                <td data-label="Member">
                  {m.displayName} <span class="muted">{m.email}</span>
                  {m.userId === props.selfId ? <span class="badge">you</span> : null}
                </td>
                <td data-label="Role">
                  <form class="inline" method="post" action={`/dashboard/admin/members/${m.userId}/role`}>
                    <input type="hidden" name="csrf" value={props.csrf} />
                    <select name="role" aria-label={`Role of ${m.email}`}>
                      {["member", "admin"].map((r) => (
                        <option value={r} selected={m.role === r}>
                          {r}
                        </option>
                      ))}
                    </select>{" "}
                    <button type="submit">Save</button>
                  </form>
                </td>
                <td data-label="Joined">{shortTime(m.joinedAt)}</td>
                <td data-label="Access">
                  {m.userId === props.selfId ? null : (
                    <form class="inline" method="post" action={`/dashboard/admin/members/${m.userId}/remove`}>
                      <input type="hidden" name="csrf" value={props.csrf} />
                      <button type="submit" aria-label={`Remove ${m.email} from the organization`}>
                        Remove
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted">Add people with the operator CLI: npm run cairn -- user add --org … --email … --role member.</p>
      <h2>API keys</h2>
      <form class="card" method="post" action="/dashboard/admin/keys" id="create-key">
        <input type="hidden" name="csrf" value={props.csrf} />
        <h3>Create a key for yourself</h3>
        <label for="key-name">Name</label>
        <br />
        <input id="key-name" type="text" name="name" required maxlength={100} />
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope: Scope) => (
            <label class="check" title={SCOPE_DESCRIPTIONS[scope]}>
              <input type="checkbox" name="scope" value={scope} checked={scope !== "org:admin" && scope !== "plans:approve"} /> {scope}{" "}
            </label>
          ))}
        </fieldset>
        <button class="primary" type="submit">
          Create key
        </button>
      </form>
      <div class="table-wrap">
        <table class="stack" id="keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Owner</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {props.keys.map((k) => (
              <tr data-key-id={k.id} data-key-name={k.name}>
                <td data-label="Name">{k.name}</td>
                <td data-label="Key">
                  <code>{k.prefix}…</code>
                </td>
                <td data-label="Owner">{k.ownerEmail}</td>
                <td data-label="Scopes">{k.scopes.join(", ")}</td>
                <td data-label="Created">{shortTime(k.createdAt)}</td>
                <td data-label="Last used">{shortTime(k.lastUsedAt)}</td>
                <td data-label="State">
                  {k.revokedAt !== null ? (
                    <span class="badge failed">revoked {shortTime(k.revokedAt)}</span>
                  ) : (
                    <form class="inline" method="post" action={`/dashboard/admin/keys/${k.id}/revoke`}>
                      <input type="hidden" name="csrf" value={props.csrf} />
                      <button class="danger" type="submit">
                        Revoke
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Delete this organization</h2>
      <form class="card" method="post" action="/dashboard/admin/org/delete" id="delete-org">
        <input type="hidden" name="csrf" value={props.csrf} />
        <p>
          Erases everything of <strong>{props.orgSlug}</strong> for good: plans, research, deliverables, evidence, search sessions, members'
          access, API keys and the audit trail. People who belong to no other organization are removed too. Export it first if you may need it:{" "}
          <code>npm run cairn -- export --org {props.orgSlug} --out {props.orgSlug}.ndjson</code>.
        </p>
        <label for="delete-confirm">Type the organization's slug to confirm</label>
        <br />
        <input id="delete-confirm" type="text" name="confirm" required autocomplete="off" pattern={props.orgSlug.replace(/[^a-z0-9-]/g, "")} />{" "}
        <button class="danger" type="submit">
          Delete {props.orgSlug} and everything in it
        </button>
      </form>
    </>
  );
}
