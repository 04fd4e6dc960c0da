import { defineConfig } from "vitest/config";

/** Domain core and pure modules, in plain Node: no Workers runtime involved. */
export default defineConfig({
  test: {
    name: "unit",
    environment: "node",
    include: ["src/domain/**/*.test.ts", "test/unit/**/*.test.ts"],
  },
});
