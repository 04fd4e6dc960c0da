/**
 * Share links from the operator CLI: the Worker's /api/v1/outputs/{outputId}/shares, with the same temporary admin
 * key and the same Worker (--url, the deployment with --remote, or a local wrangler dev) as the webhook commands.
 * A link made here is made by the org's first admin (the audit log names them).
 */
import { callWorker } from "./worker-call.mjs";
import { UsageError } from "./wrangler.mjs";

const ID = /^[a-z]{2,10}_[0-9a-z]{25}$/;

function checkedId(value, what) {
  if (!value) throw new UsageError(`Name the ${what}.`);
  if (!ID.test(value)) throw new UsageError(`"${String(value).slice(0, 60)}" is not a ${what} id.`);
  return value;
}

const call = (options, what, method, path, body) => callWorker(options, { what, method, path, body });

/** @returns {Promise<{ shareId: string, url: string, expiresAt: string }>} */
export async function createShare({ outputId, days, ...rest }) {
  const id = checkedId(outputId, "deliverable (outputId)");
  let body = {};
  if (days !== undefined) {
    if (!/^\d{1,4}$/.test(days)) throw new UsageError(`--days is a whole number of days from 1 to 365 (got "${String(days).slice(0, 20)}").`);
    body = { expiresInDays: Number(days) };
  }
  return call(rest, "shares create", "POST", `/outputs/${id}/shares`, body);
}

/** @returns {Promise<{ shares: object[] }>} */
export async function listShares({ outputId, ...rest }) {
  return call(rest, "shares list", "GET", `/outputs/${checkedId(outputId, "deliverable (outputId)")}/shares`);
}

/** @returns {Promise<{ share: object }>} */
export async function revokeShare({ outputId, shareId, ...rest }) {
  const id = checkedId(outputId, "deliverable (outputId)");
  return call(rest, "shares revoke", "DELETE", `/outputs/${id}/shares/${checkedId(shareId, "share link (shareId)")}`);
}
