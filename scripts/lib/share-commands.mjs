/**
 * The operator CLI's `shares …` commands: their usage, help and output. The calls are in shares.mjs (through the
 * Worker's /api/v1/outputs/{outputId}/shares, as an admin of the org).
 */
import * as shares from "./shares.mjs";

const WORKER = `Runs through the Worker, like export: locally the server running on the same state (npm start), else a wrangler dev started for it (or --url a running one);
with --remote, the deployment.`;

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 * @param {(headers: string[], rows: unknown[][]) => string} table
 * @param {(ms: number | null) => string} when
 */
export function shareCommands(emit, table, when) {
  const at = (iso) => (iso ? when(Date.parse(iso)) : "-");
  return {
    "shares create": {
      usage: "shares create OUTPUT_ID --org SLUG [--days N] [--url URL]",
      summary: "make a read-only link to a deliverable, for people outside the org",
      flags: ["org", "days", "url"],
      required: ["org"],
      positionals: ["outputId"],
      details: `Anyone with the link reads the deliverable, its sources and what Cairn found on them, without signing in,
for --days days (default 30, at most 365) or until it is revoked. The link is printed once: only its hash is kept.
The org's sharing setting (org settings --sharing) must not be off. ${WORKER}`,
      run: async (o, t) => {
        const r = await shares.createShare({ org: o.org, outputId: o.outputId, days: o.days, url: o.url, ...t });
        emit(o, r, () => [`Created share link ${r.shareId}, open until ${at(r.expiresAt)}:`, "", `  ${r.url}`, "", "Copy it now: it is NOT shown again."].join("\n"));
      },
    },
    "shares list": {
      usage: "shares list OUTPUT_ID --org SLUG [--url URL]",
      summary: "list a deliverable's share links (never the links themselves), with their state and views",
      flags: ["org", "url"],
      required: ["org"],
      positionals: ["outputId"],
      details: WORKER,
      run: async (o, t) => {
        const r = await shares.listShares({ org: o.org, outputId: o.outputId, url: o.url, ...t });
        emit(o, r, () =>
          r.shares.length === 0
            ? `Deliverable ${o.outputId} has no share links.`
            : table(
                ["ID", "STATE", "CREATED", "EXPIRES", "VIEWS", "LAST VIEWED"],
                r.shares.map((s) => [s.shareId, s.status, at(s.createdAt), at(s.expiresAt), s.views, at(s.lastViewedAt)]),
              ),
        );
      },
    },
    "shares revoke": {
      usage: "shares revoke OUTPUT_ID SHARE_ID --org SLUG [--url URL]",
      summary: "revoke a share link: it answers 404 from then on",
      flags: ["org", "url"],
      required: ["org"],
      positionals: ["outputId", "shareId"],
      details: WORKER,
      run: async (o, t) => {
        const r = await shares.revokeShare({ org: o.org, outputId: o.outputId, shareId: o.shareId, url: o.url, ...t });
        emit(o, r, () => `Revoked share link ${r.share.shareId}: it answers 404 from now on.`);
      },
    },
  };
}
