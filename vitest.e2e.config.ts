import { defineConfig } from "vitest/config";

/**
 * End to end: the real local server (`wrangler dev`, local D1 and KV), real MCP
 * clients over HTTP, the real OAuth flow, the operator CLI and the Inspector CLI.
 */
export default defineConfig({
  test: {
    name: "e2e",
    environment: "node",
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["./test/e2e/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
