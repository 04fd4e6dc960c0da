-- The recent full-text index holds each org's own newest artifacts, not the database's (hand-written: FTS5 and
-- triggers). With the database's newest 25,000 (0032), a neighbour storing many artifacts pushed an org's own
-- out of it, and which of its artifacts a search found depended on what other orgs stored. Now an org's window
-- is its newest 25,000 artifacts whatever its neighbours hold, and a search of it reads only
-- its own members' figures (src/storage/artifact-search.ts).
-- The index is contentless with deletes by rowid (contentless_delete=1): an artifact leaving the window is
-- dropped by its rowid, its text never read or tokenized again (0032 tokenized it a second time to delete it);
-- snippets come from the full index (0003), which keeps the text.
-- Limits (D1 stops a query at 30 s): each statement reads the artifacts table at most once in index order, and
-- the members' text is indexed a 32nd at a time. On a million artifacts of one org it took 24.5 s in all on a
-- heavily loaded 2-core machine, its longest statement 4.1 s (bench/search-migrate.mjs). A database of many
-- orgs below 25,000 artifacts each indexes nearly all its artifacts: measure it first (docs/capacity.md).
DROP TRIGGER IF EXISTS `artifacts_recent_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_recent_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_recent_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `artifacts_recent_fts`;
--> statement-breakpoint
DROP TABLE IF EXISTS `artifacts_recent_seq`;
--> statement-breakpoint
-- org_key: the org's id as one word (without '_' and '-'): a search matches it beside its own words, so FTS5
-- reads the query's lists only where they meet the org's, never walking the other orgs' windows.
CREATE VIRTUAL TABLE `artifacts_recent_fts` USING fts5(
	title, content_text, tag_index, org_key,
	content='', contentless_delete=1,
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
-- A segment is merged (what left dropped from it) once half its records have left. FTS5's default, a tenth, merged
-- the oldest segments over and over as the window moved on: 623 → 439 µs of CPU an insert (bench/search-ingest-cost.mjs).
INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rank) VALUES ('deletemerge', 50);
--> statement-breakpoint
-- How many artifacts each org has stored, ever: the number the next one gets. A member's number says how far
-- behind the org's newest it is, so the one leaving is found in one index step, whatever other orgs store.
CREATE TABLE `artifacts_recent_orgs` (
	`org_id` text PRIMARY KEY NOT NULL,
	`stored` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
-- The recent index's members: each org's newest 25,000 artifacts, numbered in the order the org stored them.
CREATE TABLE `artifacts_recent` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`ordinal` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artifacts_recent_org` ON `artifacts_recent` (`org_id`, `ordinal`);
--> statement-breakpoint
INSERT INTO `artifacts_recent_orgs` (`org_id`, `stored`) SELECT `org_id`, COUNT(*) FROM `artifacts` INDEXED BY `artifacts_org_seq` GROUP BY `org_id`;
--> statement-breakpoint
-- The window function walks artifacts_org_seq (org, then seq) once: each artifact's number within its org.
INSERT INTO `artifacts_recent` (`seq`, `org_id`, `ordinal`)
	SELECT n.seq, n.org_id, n.ordinal
	  FROM (SELECT `seq`, `org_id`, ROW_NUMBER() OVER (PARTITION BY `org_id` ORDER BY `seq`) AS ordinal FROM `artifacts` INDEXED BY `artifacts_org_seq`) n
	  JOIN `artifacts_recent_orgs` o ON o.org_id = n.org_id
	 WHERE n.ordinal > o.stored - 25000;
--> statement-breakpoint
-- The members' text is indexed in 32 statements of a 32nd each (by seq), so no one statement runs long:
-- tokenizing is the migration's cost (≈ 0.2–0.6 ms an artifact of 2 KB on the measuring machine).
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 0;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 1;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 2;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 3;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 4;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 5;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 6;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 7;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 8;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 9;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 10;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 11;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 12;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 13;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 14;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 15;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 16;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 17;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 18;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 19;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 20;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 21;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 22;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 23;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 24;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 25;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 26;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 27;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 28;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 29;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 30;
--> statement-breakpoint
INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key)
	SELECT a.seq, a.title, a.content_text, a.tag_index, replace(replace(a.org_id, '_', ''), '-', '') FROM artifacts_recent r CROSS JOIN artifacts a ON a.seq = r.seq WHERE r.seq % 32 = 31;
--> statement-breakpoint
-- A new artifact enters its org's window; the org's member 25,000 behind it leaves (by rowid: its text is not read).
-- Deletes leave tombstones in the index's segments; FTS5 merges a segment once half of it is deleted
-- ('deletemerge', above), so what left is never more than half of what a search reads.
CREATE TRIGGER `artifacts_recent_insert` AFTER INSERT ON `artifacts` BEGIN
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key) VALUES (new.seq, new.title, new.content_text, new.tag_index, replace(replace(new.org_id, '_', ''), '-', ''));
	INSERT INTO artifacts_recent_orgs(org_id, stored) VALUES (new.org_id, 1) ON CONFLICT(org_id) DO UPDATE SET stored = stored + 1;
	INSERT INTO artifacts_recent(seq, org_id, ordinal) SELECT new.seq, new.org_id, stored FROM artifacts_recent_orgs WHERE org_id = new.org_id;
	DELETE FROM artifacts_recent_fts WHERE rowid IN (
		SELECT r.seq FROM artifacts_recent r WHERE r.org_id = new.org_id AND r.ordinal <= (SELECT stored FROM artifacts_recent_orgs WHERE org_id = new.org_id) - 25000);
	DELETE FROM artifacts_recent WHERE org_id = new.org_id AND ordinal <= (SELECT stored FROM artifacts_recent_orgs WHERE org_id = new.org_id) - 25000;
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_delete` AFTER DELETE ON `artifacts` WHEN EXISTS (SELECT 1 FROM artifacts_recent WHERE seq = old.seq) BEGIN
	DELETE FROM artifacts_recent_fts WHERE rowid = old.seq;
	DELETE FROM artifacts_recent WHERE seq = old.seq;
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_update` AFTER UPDATE ON `artifacts` WHEN EXISTS (SELECT 1 FROM artifacts_recent WHERE seq = old.seq) BEGIN
	DELETE FROM artifacts_recent_fts WHERE rowid = old.seq;
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key) VALUES (new.seq, new.title, new.content_text, new.tag_index, replace(replace(new.org_id, '_', ''), '-', ''));
END;
--> statement-breakpoint
-- An org's count goes with its last artifact (an erased org leaves no row named by it).
CREATE TRIGGER `artifacts_recent_orgs_forget` AFTER DELETE ON `artifacts` WHEN NOT EXISTS (SELECT 1 FROM artifacts INDEXED BY artifacts_org_seq WHERE org_id = old.org_id) BEGIN
	DELETE FROM artifacts_recent_orgs WHERE org_id = old.org_id;
END;
