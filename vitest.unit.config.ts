import { defineConfig } from "vitest/config";

/** Domain core and pure modules, in plain Node: no Workers runtime involved. */
export default defineConfig({
  test: {
    name: "unit",
    environment: "node",
    include: ["src/domain/**/*.test.ts", "test/unit/**/*.test.ts"],
    // Two files at a time on two cores (Vitest's default is one fewer than the cores: one there). VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
  },
});
