/**
 * A deliverable's share links on its dashboard page: make one (the link is shown once, on the page that follows),
 * see each link's state and views, revoke one. The same rules as /api/v1/outputs/{outputId}/shares (src/platform/shares.ts).
 */
import type { Role } from "../../domain/scopes";
import { SHARE_LIMITS, type SharingMode, sharingRefusal } from "../../domain/shares";
import type { ShareListing } from "../../platform/shares";
import { shortTime } from "./format";
import { PostButton, RowsTable } from "./rows-table";

const time = (iso: string | null) => (iso === null ? "never" : shortTime(Date.parse(iso)));

export function ShareLinks(props: { outputId: string; shares: ShareListing[]; sharing: SharingMode; role: Role; csrf: string }) {
  const { outputId, csrf } = props;
  const refused = sharingRefusal(props.sharing, props.role);
  return (
    <section id="share-links" aria-labelledby="share-links-heading">
      <h2 id="share-links-heading">Share links</h2>
      <p class="muted">
        A share link lets anyone who has it read this deliverable, its sources and what Cairn found on them, without signing in; nothing else of the organization.
      </p>
      {refused ? (
        <p class="muted" id="share-refused">
          {refused.message}
        </p>
      ) : (
        <form class="filters" method="post" action={`/dashboard/outputs/${outputId}/shares`} id="share-create">
          <input type="hidden" name="csrf" value={csrf} />
          <span>
            <label for="share-days">Expires after (days)</label>
            <br />
            <input type="text" inputmode="numeric" id="share-days" name="days" value={String(SHARE_LIMITS.defaultDays)} size={4} />
          </span>
          <button class="primary" type="submit">
            Create share link
          </button>
        </form>
      )}
      <RowsTable
        id="share-list"
        headings={["Link", "State", "Expires", "Views", ""]}
        rows={props.shares}
        empty={<p class="muted">No share links yet.</p>}
        row={(share) => (
          <tr>
            <td data-label="Link">
              {share.shareId}
              <div class="muted">made {time(share.createdAt)}</div>
            </td>
            <td data-label="State">{share.status === "revoked" ? `revoked ${time(share.revokedAt)}` : share.status}</td>
            <td data-label="Expires">{time(share.expiresAt)}</td>
            <td data-label="Views">
              {share.views}
              {share.lastViewedAt ? <div class="muted">last {time(share.lastViewedAt)}</div> : null}
            </td>
            <td>
              {share.status === "active" ? (
                <PostButton action={`/dashboard/outputs/${outputId}/shares/${share.shareId}/revoke`} csrf={csrf} label="Revoke" kind="danger" />
              ) : null}
            </td>
          </tr>
        )}
      />
    </section>
  );
}

/** The page after making a link: the link itself, shown this once (only its hash is kept). */
export function ShareCreated(props: { outputId: string; title: string; url: string; expiresAt: string }) {
  return (
    <>
      <p class="muted">
        <a href={`/dashboard/outputs/${props.outputId}#share-links`}>← {props.title}</a>
      </p>
      <h1>Share link created</h1>
      <p>Anyone with this link can read the deliverable and its sources until {time(props.expiresAt)}, or until it is revoked.</p>
      <p class="secret" id="share-url">
        {props.url}
      </p>
      <p class="warn">Copy it now: it is not shown again (Cairn keeps only a hash of it).</p>
    </>
  );
}
