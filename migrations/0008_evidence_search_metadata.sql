-- Custom SQL migration file, put your code below! --
-- What the web search tool said about each source (seed 001 step 3): its own per-result evidence ref,
-- and the query's temporal intent, freshness setting and the stale years it removed (a JSON array).
ALTER TABLE `ledger_evidence` ADD `evidence_ref` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `temporal_intent` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `freshness` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `removed_stale_years` text;
