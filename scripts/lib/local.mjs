/**
 * The operator tooling's library, in one import for the scripts and tests:
 * wrangler and SQL (wrangler.mjs), org / user / key actions (operators.mjs),
 * and local development (dev-server.mjs). Types: local.d.mts.
 */
export * from "./dev-server.mjs";
export * from "./operators.mjs";
export * from "./wrangler.mjs";
