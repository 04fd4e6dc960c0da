/**
 * One operator CLI command through the Worker's REST API (/api/v1): the Worker (--url, the deployment with
 * --remote, the local server already running on the state, or a `wrangler dev` started for the command), a
 * temporary key (by default one of the org's admins', see withAdminKey), one request, its answer or a clear
 * failure, and the key and any started Worker gone afterwards, whatever happened. The webhook, share, schedule,
 * notification, download and re-check commands are each this with their own route.
 */
import { failure, withAdminKey, workerFor } from "./org-data.mjs";
import { normalizeSlug } from "./operators.mjs";

/** The parsed JSON answer; null for 204. */
const json = (response) => (response.status === 204 ? null : response.json());

/**
 * @param {{ org: string, url?: string, remote?: boolean, persistTo?: string, config?: string }} options the command's --org, --url and target
 * @param {{ what: string, method?: string, path: string, body?: unknown,
 *   withKey?: (slug: string, target: object, fn: (key: string) => Promise<any>) => Promise<any>,
 *   read?: (response: Response, worker: { url: string, started?: boolean }, target: object) => Promise<any>, keepLinks?: boolean }} call
 *   `path` below /api/v1; `what` names the command in a failure; `read` turns a 2xx answer into the result (default: its JSON);
 *   `keepLinks`: what the call stores keeps links to the deployment's address (see workerFor)
 */
export async function callWorker({ org, url, ...target }, { what, method = "GET", path, body, withKey = withAdminKey, read = json, keepLinks = false }) {
  const slug = normalizeSlug(org);
  const worker = await workerFor(target, url, { keepLinks });
  try {
    return await withKey(slug, target, async (key) => {
      const response = await fetch(`${worker.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw await failure(response, what);
      return read(response, worker, target);
    });
  } finally {
    await worker.stop();
  }
}
