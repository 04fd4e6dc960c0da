/**
 * Which wrangler every script runs: the first `wrangler` on the caller's PATH,
 * else the project's own. `npm run …` puts the project's node_modules/.bin
 * first, so that is the project's wrangler; the deploy tests put a fake first,
 * which is how everything that talks to Cloudflare (deploy, remote migrations,
 * remote SQL) is tested without an account.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const projectWrangler = path.join(projectRoot, "node_modules", "wrangler", "bin", "wrangler.js");

function executableOnPath(name, searchPath) {
  for (const dir of (searchPath ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/**
 * The command and leading arguments that run wrangler.
 * @param {string | undefined} searchPath the PATH to look in (the caller's, before anything is prepended)
 * @returns {{ command: string, prefix: string[] }}
 */
export function wranglerCommand(searchPath = process.env.PATH) {
  const onPath = executableOnPath("wrangler", searchPath);
  if (onPath) return { command: onPath, prefix: [] };
  // wrangler needs Node 22: this one if it is, else the project's `node` package.
  const major = Number(process.versions.node.split(".")[0]);
  const localNode = path.join(projectRoot, "node_modules", ".bin", "node");
  const node = major >= 22 || !existsSync(localNode) ? process.execPath : localNode;
  return { command: node, prefix: [projectWrangler] };
}
