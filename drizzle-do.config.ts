import { defineConfig } from "drizzle-kit";

/** Migrations of the PlanObject's own SQLite, applied in its constructor. */
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: "./src/durable-objects/plan-schema.ts",
  out: "./src/durable-objects/migrations",
});
