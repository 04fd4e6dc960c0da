-- Custom SQL migration file, put your code below! --
-- Full-text index of artifacts (drizzle-kit does not model virtual tables; this file is hand-written).
-- External content: the index holds only the tokens; rows are read from artifacts by seq.
CREATE VIRTUAL TABLE `artifacts_fts` USING fts5(
	title, content_text, tag_index,
	content='artifacts', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `artifacts_fts_insert` AFTER INSERT ON `artifacts` BEGIN
	INSERT INTO artifacts_fts(rowid, title, content_text, tag_index) VALUES (new.seq, new.title, new.content_text, new.tag_index);
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_fts_delete` AFTER DELETE ON `artifacts` BEGIN
	INSERT INTO artifacts_fts(artifacts_fts, rowid, title, content_text, tag_index) VALUES ('delete', old.seq, old.title, old.content_text, old.tag_index);
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_fts_update` AFTER UPDATE ON `artifacts` BEGIN
	INSERT INTO artifacts_fts(artifacts_fts, rowid, title, content_text, tag_index) VALUES ('delete', old.seq, old.title, old.content_text, old.tag_index);
	INSERT INTO artifacts_fts(rowid, title, content_text, tag_index) VALUES (new.seq, new.title, new.content_text, new.tag_index);
END;
