import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vitest/config";
import { defineConfig } from "vitest/config";
import { localBrowserEnv } from "./scripts/lib/local-browser.mjs";

/**
 * The Text modules of wrangler.toml's [[rules]] (.sql, .md, .html) as Vite reads them: strings. The pool hands
 * these to workerd itself when tests run; this is for Vitest's `--changed` (npm run test:quick), which walks each
 * test file's imports through Vite and would otherwise stop at the first one as invalid JavaScript.
 */
const textModules: Plugin = {
  name: "cairn:text-modules",
  enforce: "pre",
  transform(code, id) {
    return /\.(sql|md|html)$/.test(id.replace(/\?.*$/, "")) ? { code: `export default ${JSON.stringify(code)};`, map: null } : null;
  },
};

/**
 * Only when npm run test:quick lists the files to run (CAIRN_CHANGED_BOUNDARY=1; never when tests run): the Worker's
 * entry imports every module and nearly every test file reaches it (test/support/worker.ts), so `--changed` would
 * pick every file for any change. Listed with the entry's own imports cut, a file is picked when it imports the
 * changed module other than through the entry; the rest are npm test's.
 */
const changedBoundary = process.env.CAIRN_CHANGED_BOUNDARY === "1";
const entryBoundary: Plugin = {
  name: "cairn:changed-entry-boundary",
  enforce: "pre",
  load(id) {
    return changedBoundary && id.replace(/\?.*$/, "").endsWith("/src/index.ts") ? "export default {};" : null;
  },
};

/**
 * Files of test/workers that run one after another in one shared runtime (storage and module state carry over):
 * each seeds tenants of its own and asserts nothing about what others stored. A file added here must pass after
 * any other (run the group with `npx vitest run --config vitest.workers.config.ts --project workers-shared`).
 */
const SHARED_TESTS = [
  "test/workers/approval-by-person.test.ts",
  "test/workers/approval-edits.test.ts",
  "test/workers/bad-input.test.ts",
  "test/workers/client-metadata-document.test.ts",
  "test/workers/client-registration.test.ts",
  "test/workers/client-text-quota.test.ts",
  "test/workers/dashboard-names.test.ts",
  "test/workers/dashboard-settings.test.ts",
  "test/workers/dashboard.test.ts",
  "test/workers/deliverable-links.test.ts",
  "test/workers/deliverable-page.test.ts",
  "test/workers/downloads.test.ts",
  "test/workers/membership-removal.test.ts",
  "test/workers/oauth-flow.test.ts",
  "test/workers/plan-approval.test.ts",
  "test/workers/plan-budget.test.ts",
  "test/workers/quote-edits.test.ts",
  "test/workers/read-positions.test.ts",
  "test/workers/refresh-rotation.test.ts",
  "test/workers/rest-edges.test.ts",
  "test/workers/round-trips.test.ts",
  "test/workers/security.test.ts",
  "test/workers/share-links.test.ts",
  "test/workers/sign-in-throttle.test.ts",
  "test/workers/snapshot-quota.test.ts",
  "test/workers/stored-input.test.ts",
];

// The BROWSER binding (PDF downloads) starts this machine's Chromium, as under npm start, never a download.
Object.assign(process.env, (await localBrowserEnv()).env);

/** The Worker on the real runtime (workerd) with local D1, Durable Objects, KV, R2 and queues. */
export default defineConfig(async () => ({
  plugins: [
    textModules,
    entryBoundary,
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // Failed webhook deliveries are retried at once here (the doubling is tested on its own): a test waits seconds, not minutes.
        // WEBHOOK_SECRET_KEYS: a key for the tests only, sealing webhook signing secrets (webhook-secrets.test.ts opens with it).
        // An org erasure waits no membership cache out here: the tests step in at each stage themselves.
        // Cited pages other than the loopback fixtures are not fetched (they end unreachable, "refused").
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          WEBHOOK_RETRY_BASE_SECONDS: "0",
          WEBHOOK_SECRET_KEYS: "k-test:UehIjCFZbs0oiiRoOdUVqSQ5QqTZtHMBNqEzFfN6hgU=",
          ORG_ERASURE_SETTLE_MS: "0",
          // A notification recipient's digest window is one second here (five minutes by default): a test waits seconds.
          NOTIFICATION_DIGEST_SECONDS: "1",
          // Source checks fetch only the loopback fixtures (test/support/source-pages.global.ts): a test never reaches the Internet.
          SOURCE_CHECK_HOSTS: "127.0.0.1,localhost",
          // A failed source check is retried at once here (the doubling is tested on its own): a test waits seconds.
          SOURCE_CHECK_RETRY_BASE_SECONDS: "0",
        },
        // A second home database for orgs (ORG_DATABASES): test/workers/org-homes.test.ts places orgs in it.
        d1Databases: { RESEARCH_DB_2: "cairn-research-2" },
      },
    }),
  ],
  test: {
    // The same files as before, in three groups. The 21 operation, MCP, REST and object test files beside their code
    // share one runtime, file after file (isolate: false), and the 26 files of SHARED_TESTS share another: each group
    // passed so. Starting a runtime and loading the Worker into it was most of each file's time (on a loaded two-core
    // machine about 18 s a file; 27 files sharing one: 49 s of set-up in all). The rest of test/workers keep a runtime
    // of their own per file (fresh storage and module state): they change the Worker's configuration, count what is
    // stored, drive its crons over every org, or were not yet tried in a shared runtime (public-origin.test.ts fails in one).
    projects: [
      { extends: true as const, test: { name: "workers", include: ["test/workers/**/*.test.ts"], exclude: SHARED_TESTS } },
      { extends: true as const, test: { name: "workers-shared", include: SHARED_TESTS, isolate: false } },
      {
        extends: true as const,
        test: {
          name: "workers-beside-code",
          include: ["src/operations/**/*.test.ts", "src/mcp/**/*.test.ts", "src/rest/**/*.test.ts", "src/durable-objects/**/*.test.ts"],
          isolate: false,
        },
      },
    ],
    // The Worker logs a JSON line for much of what it does (an org placed, a check retried): shown for a failing test
    // only, so a run's output is the tests and what went wrong, not tens of thousands of lines.
    silent: "passed-only" as const,
    setupFiles: ["./test/support/apply-migrations.ts"],
    // Cited pages on a real loopback HTTP server (test/workers/source-verification.test.ts fetches them through the guard).
    globalSetup: ["./test/support/source-pages.global.ts"],
    // Deadlines for what never ends, not a quiet machine's pace: the same tests take three times as long beside other
    // work on two cores (a hook seeding tenants too), and a test waits for events (waitFor) up to 60 s.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Two files at a time, each in its runtime (Vitest's default is one fewer than the cores: one, on CI's two). Much of a
    // file's time is waiting (a runtime starting, a queue, a slow fixture page, a retry), so a second file fills the
    // gaps. VITEST_MAX_WORKERS=1 runs one at a time again.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
    // What makes `--changed` (npm run test:quick) pick every file: the setup, the configuration and the dependencies
    // (not package.json's scripts; Vitest's default would rerun all for any edit to package.json).
    forceRerunTriggers: ["**/vitest.workers.config.ts", "**/package-lock.json", "**/wrangler.toml", "**/migrations/**"],
  },
}));
