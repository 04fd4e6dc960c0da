#!/usr/bin/env node
/**
 * `npm run check:deploy`: bundles the Worker exactly as `wrangler deploy` would
 * (`wrangler deploy --dry-run --outdir <tmp>`), offline and without an account,
 * and fails when that fails. On success prints the bundle size.
 * Extra arguments go to wrangler (e.g. `-- --config other/wrangler.toml`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

// wrangler and the .ts imports of lib/local.mjs need Node ≥ 22.18: re-run with the project's Node if older.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const local = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../node_modules/.bin/node");
  if (!existsSync(local) || process.env.CAIRN_REEXEC) {
    console.error(`check-deploy needs Node.js 22.18 or newer (this is ${process.version}); run \`npm ci\` first.`);
    process.exit(1);
  }
  const result = spawnSync(local, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, CAIRN_REEXEC: "1" } });
  process.exit(result.status ?? 1);
}

const { runWrangler } = await import("./lib/local.mjs");

const outdir = mkdtempSync(path.join(os.tmpdir(), "cairn-deploy-"));
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

try {
  const started = Date.now();
  const result = await runWrangler(["deploy", "--dry-run", "--outdir", outdir, ...process.argv.slice(2)]);
  const output = `${result.stdout}${result.stderr}`.trim();
  if (result.code !== 0) {
    console.error(`wrangler deploy --dry-run failed (exit ${result.code ?? result.signal}):\n\n${output}`);
    process.exitCode = 1;
  } else {
    const files = filesUnder(outdir).filter((file) => !file.endsWith(".map") && path.basename(file) !== "README.md");
    if (files.length === 0) {
      console.error(`wrangler deploy --dry-run wrote no bundle to ${outdir}:\n\n${output}`);
      process.exitCode = 1;
    } else {
      let total = 0;
      let gzipped = 0;
      console.log(`wrangler deploy --dry-run: OK in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (const file of files) {
        const size = statSync(file).size;
        const gz = gzipSync(readFileSync(file)).length;
        total += size;
        gzipped += gz;
        console.log(`  ${path.relative(outdir, file).padEnd(24)} ${kib(size).padStart(12)}  (gzip ${kib(gz)})`);
      }
      console.log(`Bundle size: ${kib(total)}, ${kib(gzipped)} gzipped (Workers limits: 3 MiB gzipped on Free, 10 MiB on Paid).`);
      const warnings = output.split("\n").filter((line) => /warn|▲/i.test(line));
      if (warnings.length > 0) console.log(`\nwrangler warnings:\n${warnings.join("\n")}`);
    }
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
