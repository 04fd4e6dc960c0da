import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** The Worker on the real runtime (workerd) with local D1 and KV, storage isolated per test file. */
export default defineConfig(async () => ({
  plugins: [
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
    name: "workers",
    include: [
      "src/operations/**/*.test.ts",
      "src/mcp/**/*.test.ts",
      "src/rest/**/*.test.ts",
      "src/durable-objects/**/*.test.ts",
      "test/workers/**/*.test.ts",
    ],
    setupFiles: ["./test/support/apply-migrations.ts"],
    // Cited pages on a real loopback HTTP server (test/workers/source-verification.test.ts fetches them through the guard).
    globalSetup: ["./test/support/source-pages.global.ts"],
    testTimeout: 30_000,
  },
}));
