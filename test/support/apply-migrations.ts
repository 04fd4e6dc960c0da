import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every home database has the same schema as the directory (org-homes.test.ts places orgs in this one).
await applyD1Migrations((env as unknown as { RESEARCH_DB_2: D1Database }).RESEARCH_DB_2, env.TEST_MIGRATIONS);
