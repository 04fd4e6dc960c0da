-- The database's newest artifacts indexed a second time, on their own (hand-written: FTS5 and triggers).
-- A search ranks in this small index first: bm25 weighs each word by counting the records that hold it,
-- and phrases and prefixes walk each word's whole list, so in the full index (0003) every search of a
-- common word costs time in step with everything ever stored. Here it costs at most the newest 25,000.
-- The full index still holds every artifact: a search goes there when this one cannot answer alone
-- (fewer matches than the ranking window, and the org has older artifacts) and the query's words are rare
-- enough for the full index to be cheap (FULL_INDEX_BUDGET in src/storage/artifact-search.ts).
-- Never run FTS5's 'rebuild' on artifacts_recent_fts: it would index every artifact (its content table is all of
-- them); 'integrity-check' with rank 0 checks its structure without comparing it to that table.
CREATE VIRTUAL TABLE `artifacts_recent_fts` USING fts5(
	title, content_text, tag_index,
	content='artifacts', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
-- Which artifacts the recent index holds (an external-content index cannot say): the newest 25,000 seq.
CREATE TABLE `artifacts_recent_seq` (`seq` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
-- Whether an org has artifacts older than the recent index, in one index step.
CREATE INDEX `artifacts_org_seq` ON `artifacts` (`org_id`);
--> statement-breakpoint
-- What a search's filters read of each match, by seq, without the row's text: an artifact row is a few KB
-- (its text, its content), its tags at the end of it; these entries are under 100 bytes.
CREATE INDEX `artifacts_search_filters` ON `artifacts` (`seq`, `org_id`, `artifact_type`, `plan_id`, `tag_index`, `updated_at`);
--> statement-breakpoint
INSERT INTO `artifacts_recent_seq` (`seq`) SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) - 25000;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index)
	SELECT a.seq, a.title, a.content_text, a.tag_index FROM artifacts_recent_seq r CROSS JOIN artifacts a ON a.seq = r.seq;
--> statement-breakpoint
-- A new artifact enters; whatever is now 25,000 or more behind it leaves (one row, as a rule).
-- The update trigger keeps the index equal to the row, so the row's values are what was indexed.
-- CROSS JOIN keeps SQLite from walking every artifact below the bound to find the one row that leaves.
-- Every artifact that leaves adds a delete marker to the index, and FTS5 drops markers only when it merges
-- the segments holding them: left alone, 75,000 inserts made a search of the recent index 20 times slower
-- (5 → 100 ms). Every 1,000th insert does a step of incremental optimize (300 pages, negative 'merge'):
-- searches stay within 2× of a freshly optimized index, and inserts cost ≈ 25 % more.
CREATE TRIGGER `artifacts_recent_fts_insert` AFTER INSERT ON `artifacts` BEGIN
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index) VALUES (new.seq, new.title, new.content_text, new.tag_index);
	INSERT INTO artifacts_recent_seq(seq) VALUES (new.seq);
	INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rowid, title, content_text, tag_index)
		SELECT 'delete', a.seq, a.title, a.content_text, a.tag_index FROM artifacts_recent_seq r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq <= new.seq - 25000;
	DELETE FROM artifacts_recent_seq WHERE seq <= new.seq - 25000;
	INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rank) SELECT 'merge', -300 WHERE new.seq % 1000 = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_fts_delete` AFTER DELETE ON `artifacts` WHEN EXISTS (SELECT 1 FROM artifacts_recent_seq WHERE seq = old.seq) BEGIN
	INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rowid, title, content_text, tag_index) VALUES ('delete', old.seq, old.title, old.content_text, old.tag_index);
	DELETE FROM artifacts_recent_seq WHERE seq = old.seq;
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_fts_update` AFTER UPDATE ON `artifacts` WHEN EXISTS (SELECT 1 FROM artifacts_recent_seq WHERE seq = old.seq) BEGIN
	INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rowid, title, content_text, tag_index) VALUES ('delete', old.seq, old.title, old.content_text, old.tag_index);
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index) VALUES (new.seq, new.title, new.content_text, new.tag_index);
END;
