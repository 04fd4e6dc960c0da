-- What text the full-text indexes get (hand-written: FTS5, a view and triggers). The index cuts words at spaces and
-- punctuation only, so a Japanese, Chinese, Korean or Thai run was one word up to its next punctuation ("天気" was not
-- found in "東京の天気は晴れです。"). Now each artifact may carry an indexed form of its title and text beside them
-- (search_title, search_text: NULL when it is the text itself, as for most): the same characters with an invisible
-- separator (U+200B) between the pieces of such runs, written by the Worker (src/domain/research/search-text.ts:
-- Intl.Segmenter is not reachable from SQL). The stored title and text are never changed.
-- The full index (0003) read its text from the artifacts table: it now reads it through artifacts_indexed, so its
-- snippets are cut from the same text it indexed. FTS5 cannot change an index's content table: it is made again,
-- the artifacts indexed a 64th at a time (by seq range: each statement reads only its own rows).
-- Existing artifacts holding those scripts (and Arabic, Hebrew) are listed in artifacts_index_pending; the five-minute
-- cron writes their indexed forms (src/platform/search-reindex.ts), and the update triggers re-index each.
-- Measured (bench/README.md "Words in every script"): every statement stays far below D1's 30 s on a million artifacts.
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
-- Every artifact again, a 64th at a time (no artifact has an indexed form yet: its title and text are what is indexed).
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 0 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 1 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 1 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 2 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 2 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 3 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 3 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 4 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 4 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 5 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 5 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 6 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 6 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 7 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 7 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 8 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 8 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 9 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 9 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 10 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 10 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 11 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 11 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 12 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 12 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 13 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 13 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 14 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 14 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 15 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 15 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 16 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 16 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 17 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 17 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 18 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 18 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 19 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 19 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 20 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 20 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 21 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 21 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 22 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 22 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 23 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 23 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 24 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 24 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 25 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 25 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 26 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 26 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 27 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 27 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 28 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 28 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 29 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 29 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 30 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 30 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 31 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 31 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 32 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 32 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 33 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 33 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 34 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 34 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 35 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 35 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 36 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 36 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 37 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 37 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 38 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 38 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 39 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 39 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 40 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 40 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 41 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 41 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 42 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 42 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 43 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 43 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 44 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 44 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 45 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 45 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 46 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 46 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 47 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 47 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 48 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 48 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 49 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 49 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 50 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 50 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 51 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 51 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 52 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 52 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 53 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 53 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 54 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 54 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 55 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 55 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 56 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 56 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 57 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 57 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 58 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 58 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 59 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 59 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 60 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 60 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 61 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 61 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 62 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 62 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 63 / 64;
--> statement-breakpoint
INSERT INTO artifacts_fts(rowid, title, content_text, tag_index)
	SELECT `seq`, `title`, `content_text`, `tag_index` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 63 / 64;
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
-- Artifacts stored before this migration whose indexed form may differ from their text: those holding a character of
-- the scripts search-text.ts cuts (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar, Arabic, Hebrew). Listed by the same
-- seq ranges; GLOB reads code point ranges (two patterns: D1 refuses a pattern over 50 bytes). An artifact erased before its turn leaves its entry behind: the sweep drops it.
CREATE TABLE `artifacts_index_pending` (`seq` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 0 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 1 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 1 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 2 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 2 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 3 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 3 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 4 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 4 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 5 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 5 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 6 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 6 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 7 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 7 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 8 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 8 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 9 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 9 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 10 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 10 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 11 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 11 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 12 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 12 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 13 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 13 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 14 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 14 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 15 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 15 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 16 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 16 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 17 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 17 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 18 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 18 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 19 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 19 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 20 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 20 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 21 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 21 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 22 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 22 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 23 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 23 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 24 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 24 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 25 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 25 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 26 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 26 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 27 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 27 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 28 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 28 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 29 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 29 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 30 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 30 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 31 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 31 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 32 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 32 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 33 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 33 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 34 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 34 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 35 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 35 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 36 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 36 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 37 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 37 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 38 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 38 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 39 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 39 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 40 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 40 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 41 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 41 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 42 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 42 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 43 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 43 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 44 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 44 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 45 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 45 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 46 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 46 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 47 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 47 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 48 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 48 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 49 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 49 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 50 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 50 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 51 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 51 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 52 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 52 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 53 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 53 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 54 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 54 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 55 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 55 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 56 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 56 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 57 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 57 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 58 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 58 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 59 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 59 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 60 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 60 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 61 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 61 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 62 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 62 / 64 AND `seq` <= (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 63 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
--> statement-breakpoint
INSERT INTO `artifacts_index_pending` (`seq`)
	SELECT `seq` FROM `artifacts` WHERE `seq` > (SELECT COALESCE(MAX(`seq`), 0) FROM `artifacts`) * 63 / 64 AND (`title` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `title` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*' OR `content_text` GLOB '*[֐-ۿ฀-໿က-ᇿក-៿]*' OR `content_text` GLOB '*[぀-鿿가-힯豈-﫿ｦ-ﾟ𠀀-𯿿]*');
