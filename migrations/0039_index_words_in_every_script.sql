-- What text the full-text indexes get (hand-written: FTS5, a view and triggers). The index cuts words at spaces and
-- punctuation only, so a Japanese, Chinese, Korean or Thai run was one word up to its next punctuation ("天気" was not
-- found in "東京の天気は晴れです。"). Now each artifact may carry an indexed form of its title and text beside them
-- (search_title, search_text: NULL when it is the text itself, as for most): the same characters with an invisible
-- separator (U+200B) between the pieces of such runs, written by the Worker (src/domain/research/search-text.ts:
-- Intl.Segmenter is not reachable from SQL). The stored title and text are never changed.
-- The full index (0003) read its text from the artifacts table: it now reads it through artifacts_indexed, so its
-- snippets are cut from the same text it indexed. FTS5 cannot change an index's content table: it is made again,
-- the artifacts indexed a 128th at a time by seq range (each statement reads only its own rows).
-- Existing artifacts with a word in those scripts (or Arabic, Hebrew) are then listed in artifacts_index_pending, found
-- in the new index's own list of words (fts5vocab, by ranges of words: no artifact's text is read again); the
-- five-minute cron gives them their indexed forms (src/platform/search-reindex.ts) and the update triggers index them.
-- Measured (bench/README.md "Words in every script"): 100,000 artifacts of ~2 KB, every statement at most 3.5 s on a
-- loaded two-core machine; a million: ~35 s a statement there, ~5 s on a quiet one (D1 stops a query at 30 s).
ALTER TABLE `artifacts` ADD COLUMN `search_title` text;
--> statement-breakpoint
ALTER TABLE `artifacts` ADD COLUMN `search_text` text;
--> statement-breakpoint
-- What the full index reads: the indexed form where there is one.
CREATE VIEW `artifacts_indexed` AS
	SELECT `seq`, COALESCE(`search_title`, `title`) AS `title`, COALESCE(`search_text`, `content_text`) AS `content_text`, `tag_index` FROM `artifacts`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `artifacts_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `artifacts_fts` USING fts5(
	title, content_text, tag_index,
	content='artifacts_indexed', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
-- Every artifact again, a 128th at a time (no artifact has an indexed form yet: its title and text are what is indexed).
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 0 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 1 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 1 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 2 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 2 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 3 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 3 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 4 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 4 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 5 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 5 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 6 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 6 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 7 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 7 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 8 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 8 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 9 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 9 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 10 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 10 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 11 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 11 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 12 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 12 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 13 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 13 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 14 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 14 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 15 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 15 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 16 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 16 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 17 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 17 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 18 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 18 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 19 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 19 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 20 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 20 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 21 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 21 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 22 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 22 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 23 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 23 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 24 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 24 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 25 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 25 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 26 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 26 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 27 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 27 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 28 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 28 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 29 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 29 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 30 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 30 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 31 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 31 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 32 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 32 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 33 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 33 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 34 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 34 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 35 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 35 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 36 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 36 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 37 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 37 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 38 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 38 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 39 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 39 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 40 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 40 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 41 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 41 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 42 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 42 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 43 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 43 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 44 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 44 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 45 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 45 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 46 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 46 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 47 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 47 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 48 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 48 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 49 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 49 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 50 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 50 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 51 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 51 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 52 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 52 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 53 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 53 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 54 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 54 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 55 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 55 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 56 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 56 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 57 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 57 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 58 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 58 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 59 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 59 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 60 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 60 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 61 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 61 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 62 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 62 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 63 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 63 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 64 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 64 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 65 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 65 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 66 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 66 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 67 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 67 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 68 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 68 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 69 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 69 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 70 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 70 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 71 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 71 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 72 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 72 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 73 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 73 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 74 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 74 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 75 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 75 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 76 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 76 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 77 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 77 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 78 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 78 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 79 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 79 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 80 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 80 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 81 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 81 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 82 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 82 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 83 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 83 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 84 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 84 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 85 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 85 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 86 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 86 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 87 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 87 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 88 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 88 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 89 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 89 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 90 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 90 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 91 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 91 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 92 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 92 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 93 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 93 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 94 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 94 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 95 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 95 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 96 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 96 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 97 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 97 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 98 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 98 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 99 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 99 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 100 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 100 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 101 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 101 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 102 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 102 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 103 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 103 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 104 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 104 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 105 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 105 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 106 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 106 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 107 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 107 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 108 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 108 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 109 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 109 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 110 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 110 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 111 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 111 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 112 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 112 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 113 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 113 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 114 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 114 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 115 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 115 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 116 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 116 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 117 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 117 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 118 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 118 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 119 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 119 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 120 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 120 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 121 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 121 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 122 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 122 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 123 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 123 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 124 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 124 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 125 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 125 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 126 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 126 / 128 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 127 / 128;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 127 / 128;
--> statement-breakpoint
CREATE TRIGGER `artifacts_fts_insert` AFTER INSERT ON `artifacts` BEGIN
	INSERT INTO artifacts_fts(rowid, title, content_text, tag_index) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_text, new.content_text), new.tag_index);
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_fts_delete` AFTER DELETE ON `artifacts` BEGIN
	INSERT INTO artifacts_fts(artifacts_fts, rowid, title, content_text, tag_index) VALUES ('delete', old.seq, COALESCE(old.search_title, old.title), COALESCE(old.search_text, old.content_text), old.tag_index);
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_fts_update` AFTER UPDATE ON `artifacts` BEGIN
	INSERT INTO artifacts_fts(artifacts_fts, rowid, title, content_text, tag_index) VALUES ('delete', old.seq, COALESCE(old.search_title, old.title), COALESCE(old.search_text, old.content_text), old.tag_index);
	INSERT INTO artifacts_fts(rowid, title, content_text, tag_index) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_text, new.content_text), new.tag_index);
END;
--> statement-breakpoint
-- The recent index (0036) gets the same text: its insert and update triggers again, their text columns the indexed form
-- (nothing else in them changed).
DROP TRIGGER IF EXISTS `artifacts_recent_insert`;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_insert` AFTER INSERT ON `artifacts` BEGIN
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_text, new.content_text), new.tag_index, replace(replace(new.org_id, '_', ''), '-', ''));
	INSERT INTO artifacts_recent_orgs(org_id, stored) VALUES (new.org_id, 1) ON CONFLICT(org_id) DO UPDATE SET stored = stored + 1;
	INSERT INTO artifacts_recent(seq, org_id, ordinal) SELECT new.seq, new.org_id, stored FROM artifacts_recent_orgs WHERE org_id = new.org_id;
	DELETE FROM artifacts_recent_fts WHERE rowid IN (
		SELECT r.seq FROM artifacts_recent r WHERE r.org_id = new.org_id AND r.ordinal <= (SELECT stored FROM artifacts_recent_orgs WHERE org_id = new.org_id) - 25000);
	DELETE FROM artifacts_recent WHERE org_id = new.org_id AND ordinal <= (SELECT stored FROM artifacts_recent_orgs WHERE org_id = new.org_id) - 25000;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_recent_update`;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_update` AFTER UPDATE ON `artifacts` WHEN EXISTS (SELECT 1 FROM artifacts_recent WHERE seq = old.seq) BEGIN
	DELETE FROM artifacts_recent_fts WHERE rowid = old.seq;
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_text, new.content_text), new.tag_index, replace(replace(new.org_id, '_', ''), '-', ''));
END;
--> statement-breakpoint
-- Artifacts stored before this migration whose indexed form may differ from their text: those with a word that begins
-- with a character at U+0590 or above (Hebrew, Arabic, Thai, Lao, Myanmar, Hangul, kana, Han, Khmer…; Latin, Greek and
-- Cyrillic lie below). What is listed and needs nothing is only taken off the list by the sweep.
-- An artifact erased before its turn leaves its entry behind: the sweep drops it.
CREATE TABLE `artifacts_index_pending` (`seq` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
-- The words of the index with the artifacts holding them (FTS5's own view of its index, read by ranges of words).
CREATE VIRTUAL TABLE `artifacts_fts_words` USING fts5vocab(`artifacts_fts`, 'instance');
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '֐' AND `term` < '฀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '฀' AND `term` < 'ᄀ';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= 'ᄀ' AND `term` < '぀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '぀' AND `term` < '㄀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '㄀' AND `term` < '一';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '一' AND `term` < '匠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '匠' AND `term` < '塀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '塀' AND `term` < '嵠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '嵠' AND `term` < '技';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '技' AND `term` < '枠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '枠' AND `term` < '泀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '泀' AND `term` < '燠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '燠' AND `term` < '眀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '眀' AND `term` < '簠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '簠' AND `term` < '腀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '腀' AND `term` < '虠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '虠' AND `term` < '讀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '讀' AND `term` < '邠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '邠' AND `term` < '闀';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '闀' AND `term` < '髠';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '髠' AND `term` < 'ꀀ';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= 'ꀀ' AND `term` < '가';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '가' AND `term` < '녶';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '녶' AND `term` < '뛬';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '뛬' AND `term` < '뱢';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '뱢' AND `term` < '쇘';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '쇘' AND `term` < '읎';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '읎' AND `term` < '쳄';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '쳄' AND `term` < '툺';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= '툺' AND `term` < 'ힰ';
--> statement-breakpoint
INSERT OR IGNORE INTO `artifacts_index_pending` (`seq`) SELECT DISTINCT `doc` FROM `artifacts_fts_words` WHERE `term` >= 'ힰ';
--> statement-breakpoint
DROP TABLE `artifacts_fts_words`;
