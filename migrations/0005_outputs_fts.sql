-- Custom SQL migration file, put your code below! --
-- Full-text index of deliverables, beside artifacts_fts (hand-written; see 0003).
CREATE VIRTUAL TABLE `research_outputs_fts` USING fts5(
	title, content,
	content='research_outputs', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `research_outputs_fts_insert` AFTER INSERT ON `research_outputs` BEGIN
	INSERT INTO research_outputs_fts(rowid, title, content) VALUES (new.seq, new.title, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `research_outputs_fts_delete` AFTER DELETE ON `research_outputs` BEGIN
	INSERT INTO research_outputs_fts(research_outputs_fts, rowid, title, content) VALUES ('delete', old.seq, old.title, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER `research_outputs_fts_update` AFTER UPDATE ON `research_outputs` BEGIN
	INSERT INTO research_outputs_fts(research_outputs_fts, rowid, title, content) VALUES ('delete', old.seq, old.title, old.content);
	INSERT INTO research_outputs_fts(rowid, title, content) VALUES (new.seq, new.title, new.content);
END;
