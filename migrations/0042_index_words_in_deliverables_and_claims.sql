-- Deliverables and evidence-ledger claims get indexed forms like artifacts (0039): a word inside a Japanese, Chinese,
-- Korean or Thai run of theirs is found ("発電" in "潮汐発電の見通し"). Hand-written (FTS5, views and triggers).
-- Each deliverable may carry an indexed form of its title and content (search_title, search_content), each claim of
-- its text and subtopic (search_text, search_subtopic): NULL when it is the text itself, as for most; written by the
-- Worker (src/domain/research/search-text.ts, the one segmentation: Intl.Segmenter is not reachable from SQL). The
-- stored texts are never changed.
-- Both indexes now read through views (research_outputs_indexed, ledger_claims_indexed) so that their snippets are cut
-- from the text they indexed. FTS5 cannot change an index's content table: each is made again, by seq range (each
-- statement reads only its own rows): deliverables a 128th at a time (up to 1 MB each), claims a 32nd (a sentence each).
-- Existing rows with a word in those scripts (or Arabic, Hebrew) are then listed in research_outputs_index_pending and
-- ledger_claims_index_pending, found in the new indexes' own lists of words (fts5vocab, by the ranges of words 0039
-- used: no text is read again); the five-minute cron gives them their indexed forms (src/platform/search-reindex.ts)
-- and the update triggers index them again. Until its turn a row is found as before (by whole clauses).
ALTER TABLE `research_outputs` ADD COLUMN `search_title` text;
--> statement-breakpoint
ALTER TABLE `research_outputs` ADD COLUMN `search_content` text;
--> statement-breakpoint
ALTER TABLE `ledger_claims` ADD COLUMN `search_text` text;
--> statement-breakpoint
ALTER TABLE `ledger_claims` ADD COLUMN `search_subtopic` text;
--> statement-breakpoint
-- What the deliverables' index reads: the indexed form where there is one.
CREATE VIEW `research_outputs_indexed` AS
	SELECT `seq`, COALESCE(`search_title`, `title`) AS `title`, COALESCE(`search_content`, `content`) AS `content` FROM `research_outputs`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `research_outputs_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `research_outputs_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `research_outputs_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `research_outputs_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `research_outputs_fts` USING fts5(
	title, content,
	content='research_outputs_indexed', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
-- Every row again, a 128th at a time (no row has an indexed form yet: its texts are what is indexed).
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 0 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 1 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 1 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 2 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 2 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 3 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 3 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 4 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 4 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 5 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 5 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 6 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 6 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 7 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 7 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 8 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 8 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 9 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 9 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 10 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 10 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 11 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 11 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 12 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 12 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 13 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 13 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 14 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 14 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 15 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 15 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 16 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 16 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 17 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 17 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 18 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 18 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 19 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 19 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 20 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 20 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 21 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 21 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 22 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 22 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 23 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 23 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 24 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 24 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 25 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 25 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 26 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 26 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 27 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 27 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 28 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 28 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 29 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 29 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 30 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 30 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 31 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 31 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 32 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 32 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 33 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 33 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 34 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 34 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 35 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 35 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 36 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 36 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 37 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 37 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 38 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 38 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 39 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 39 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 40 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 40 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 41 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 41 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 42 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 42 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 43 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 43 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 44 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 44 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 45 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 45 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 46 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 46 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 47 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 47 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 48 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 48 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 49 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 49 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 50 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 50 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 51 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 51 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 52 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 52 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 53 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 53 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 54 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 54 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 55 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 55 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 56 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 56 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 57 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 57 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 58 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 58 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 59 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 59 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 60 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 60 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 61 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 61 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 62 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 62 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 63 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 63 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 64 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 64 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 65 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 65 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 66 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 66 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 67 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 67 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 68 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 68 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 69 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 69 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 70 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 70 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 71 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 71 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 72 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 72 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 73 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 73 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 74 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 74 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 75 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 75 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 76 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 76 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 77 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 77 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 78 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 78 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 79 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 79 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 80 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 80 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 81 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 81 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 82 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 82 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 83 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 83 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 84 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 84 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 85 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 85 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 86 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 86 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 87 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 87 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 88 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 88 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 89 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 89 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 90 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 90 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 91 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 91 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 92 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 92 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 93 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 93 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 94 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 94 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 95 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 95 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 96 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 96 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 97 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 97 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 98 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 98 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 99 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 99 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 100 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 100 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 101 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 101 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 102 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 102 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 103 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 103 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 104 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 104 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 105 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 105 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 106 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 106 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 107 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 107 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 108 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 108 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 109 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 109 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 110 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 110 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 111 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 111 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 112 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 112 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 113 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 113 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 114 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 114 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 115 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 115 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 116 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 116 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 117 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 117 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 118 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 118 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 119 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 119 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 120 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 120 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 121 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 121 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 122 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 122 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 123 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 123 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 124 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 124 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 125 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 125 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 126 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 126 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 127 / 128;
--> statement-breakpoint
INSERT INTO research_outputs_fts(rowid, title, content)
	SELECT `seq`, `title`, `content` FROM `research_outputs` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `research_outputs`) * 127 / 128;
--> statement-breakpoint
CREATE TRIGGER `research_outputs_fts_insert` AFTER INSERT ON `research_outputs` BEGIN
	INSERT INTO research_outputs_fts(rowid, title, content) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_content, new.content));
END;
--> statement-breakpoint
CREATE TRIGGER `research_outputs_fts_delete` AFTER DELETE ON `research_outputs` BEGIN
	INSERT INTO research_outputs_fts(research_outputs_fts, rowid, title, content) VALUES ('delete', old.seq, COALESCE(old.search_title, old.title), COALESCE(old.search_content, old.content));
END;
--> statement-breakpoint
CREATE TRIGGER `research_outputs_fts_update` AFTER UPDATE ON `research_outputs` BEGIN
	INSERT INTO research_outputs_fts(research_outputs_fts, rowid, title, content) VALUES ('delete', old.seq, COALESCE(old.search_title, old.title), COALESCE(old.search_content, old.content));
	INSERT INTO research_outputs_fts(rowid, title, content) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_content, new.content));
END;
--> statement-breakpoint
-- Rows stored before this migration whose indexed form may differ from their text: those with a word that begins with a
-- character at U+0590 or above (as 0039). What is listed and needs nothing is only taken off the list by the sweep; a
-- row erased before its turn leaves its entry behind, which the sweep drops.
CREATE TABLE `research_outputs_index_pending` (`seq` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
CREATE VIRTUAL TABLE `research_outputs_fts_words` USING fts5vocab(`research_outputs_fts`, 'instance');
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '֐' AND `term` < '฀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '฀' AND `term` < 'ᄀ';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= 'ᄀ' AND `term` < '぀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '぀' AND `term` < '㄀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '㄀' AND `term` < '一';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '一' AND `term` < '匠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '匠' AND `term` < '塀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '塀' AND `term` < '嵠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '嵠' AND `term` < '技';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '技' AND `term` < '枠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '枠' AND `term` < '泀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '泀' AND `term` < '燠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '燠' AND `term` < '眀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '眀' AND `term` < '簠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '簠' AND `term` < '腀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '腀' AND `term` < '虠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '虠' AND `term` < '讀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '讀' AND `term` < '邠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '邠' AND `term` < '闀';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '闀' AND `term` < '髠';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '髠' AND `term` < 'ꀀ';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= 'ꀀ' AND `term` < '가';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '가' AND `term` < '녶';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '녶' AND `term` < '뛬';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '뛬' AND `term` < '뱢';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '뱢' AND `term` < '쇘';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '쇘' AND `term` < '읎';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '읎' AND `term` < '쳄';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '쳄' AND `term` < '툺';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= '툺' AND `term` < 'ힰ';
--> statement-breakpoint
INSERT OR IGNORE INTO `research_outputs_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `research_outputs_fts_words` WHERE `term` >= 'ힰ';
--> statement-breakpoint
DROP TABLE `research_outputs_fts_words`;
--> statement-breakpoint
-- What the claims' index reads: the indexed form where there is one.
CREATE VIEW `ledger_claims_indexed` AS
	SELECT `seq`, COALESCE(`search_text`, `text`) AS `text`, COALESCE(`search_subtopic`, `subtopic`) AS `subtopic` FROM `ledger_claims`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `ledger_claims_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `ledger_claims_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `ledger_claims_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `ledger_claims_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `ledger_claims_fts` USING fts5(
	text, subtopic,
	content='ledger_claims_indexed', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
-- Every row again, a 32nd at a time (no row has an indexed form yet: its texts are what is indexed).
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 0 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 1 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 1 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 2 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 2 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 3 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 3 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 4 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 4 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 5 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 5 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 6 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 6 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 7 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 7 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 8 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 8 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 9 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 9 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 10 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 10 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 11 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 11 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 12 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 12 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 13 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 13 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 14 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 14 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 15 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 15 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 16 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 16 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 17 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 17 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 18 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 18 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 19 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 19 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 20 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 20 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 21 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 21 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 22 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 22 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 23 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 23 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 24 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 24 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 25 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 25 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 26 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 26 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 27 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 27 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 28 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 28 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 29 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 29 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 30 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 30 / 32 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 31 / 32;
--> statement-breakpoint
INSERT INTO ledger_claims_fts(rowid, text, subtopic)
	SELECT `seq`, `text`, `subtopic` FROM `ledger_claims` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `ledger_claims`) * 31 / 32;
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_fts_insert` AFTER INSERT ON `ledger_claims` BEGIN
	INSERT INTO ledger_claims_fts(rowid, text, subtopic) VALUES (new.seq, COALESCE(new.search_text, new.text), COALESCE(new.search_subtopic, new.subtopic));
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_fts_delete` AFTER DELETE ON `ledger_claims` BEGIN
	INSERT INTO ledger_claims_fts(ledger_claims_fts, rowid, text, subtopic) VALUES ('delete', old.seq, COALESCE(old.search_text, old.text), COALESCE(old.search_subtopic, old.subtopic));
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_fts_update` AFTER UPDATE OF `text`, `subtopic`, `search_text`, `search_subtopic` ON `ledger_claims` BEGIN
	INSERT INTO ledger_claims_fts(ledger_claims_fts, rowid, text, subtopic) VALUES ('delete', old.seq, COALESCE(old.search_text, old.text), COALESCE(old.search_subtopic, old.subtopic));
	INSERT INTO ledger_claims_fts(rowid, text, subtopic) VALUES (new.seq, COALESCE(new.search_text, new.text), COALESCE(new.search_subtopic, new.subtopic));
END;
--> statement-breakpoint
-- Rows stored before this migration whose indexed form may differ from their text: those with a word that begins with a
-- character at U+0590 or above (as 0039). What is listed and needs nothing is only taken off the list by the sweep; a
-- row erased before its turn leaves its entry behind, which the sweep drops.
CREATE TABLE `ledger_claims_index_pending` (`seq` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
CREATE VIRTUAL TABLE `ledger_claims_fts_words` USING fts5vocab(`ledger_claims_fts`, 'instance');
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '֐' AND `term` < '฀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '฀' AND `term` < 'ᄀ';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= 'ᄀ' AND `term` < '぀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '぀' AND `term` < '㄀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '㄀' AND `term` < '一';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '一' AND `term` < '匠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '匠' AND `term` < '塀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '塀' AND `term` < '嵠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '嵠' AND `term` < '技';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '技' AND `term` < '枠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '枠' AND `term` < '泀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '泀' AND `term` < '燠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '燠' AND `term` < '眀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '眀' AND `term` < '簠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '簠' AND `term` < '腀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '腀' AND `term` < '虠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '虠' AND `term` < '讀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '讀' AND `term` < '邠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '邠' AND `term` < '闀';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '闀' AND `term` < '髠';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '髠' AND `term` < 'ꀀ';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= 'ꀀ' AND `term` < '가';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '가' AND `term` < '녶';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '녶' AND `term` < '뛬';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '뛬' AND `term` < '뱢';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '뱢' AND `term` < '쇘';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '쇘' AND `term` < '읎';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '읎' AND `term` < '쳄';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '쳄' AND `term` < '툺';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= '툺' AND `term` < 'ힰ';
--> statement-breakpoint
INSERT OR IGNORE INTO `ledger_claims_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `ledger_claims_fts_words` WHERE `term` >= 'ힰ';
--> statement-breakpoint
DROP TABLE `ledger_claims_fts_words`;
