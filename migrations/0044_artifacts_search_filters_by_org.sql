-- What a search's filters read of each match, now by org first (hand-written). 0032's index was keyed by seq alone:
-- an org whose artifacts are spread among a larger neighbour's (10,000 among a million, every 100th) had each of its
-- matches on another page of that index, and ranking a common word's matches with a type or tag filter read
-- pages all over it (30 ms, where the neighbour, whose newest artifacts lie together, took 6). Keyed by org, then
-- seq, an org's entries lie together whoever else stores. The same columns: an insert writes one entry, as before.
CREATE INDEX IF NOT EXISTS `artifacts_org_search_filters` ON `artifacts` (`org_id`, `seq`, `artifact_type`, `plan_id`, `tag_index`, `updated_at`);
--> statement-breakpoint
DROP INDEX IF EXISTS `artifacts_search_filters`;
