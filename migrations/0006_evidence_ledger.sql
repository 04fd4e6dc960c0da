-- Custom SQL migration file, put your code below! --
-- The deep-research evidence ledger of seed 001, per plan (hand-written: FTS5 and triggers).
CREATE TABLE `evidence_ledgers` (
	`org_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`citation_policy` text NOT NULL,
	`subtopics` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `plan_id`)
);
--> statement-breakpoint
CREATE TABLE `ledger_evidence` (
	`org_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`n` integer NOT NULL,
	`url` text NOT NULL,
	`title` text NOT NULL,
	`facts` text NOT NULL,
	`quote` text,
	`fetched_at` integer,
	`content_hash` text NOT NULL,
	`subtopic` text,
	`query` text,
	`recorded_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `plan_id`, `n`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_evidence_source` ON `ledger_evidence` (`org_id`, `plan_id`, `url`, `content_hash`);
--> statement-breakpoint
CREATE TABLE `ledger_claims` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`n` integer NOT NULL,
	`subtopic` text NOT NULL,
	`subtopic_key` text NOT NULL,
	`text` text NOT NULL,
	`normalized` text NOT NULL,
	`evidence_refs` text NOT NULL,
	`worker_ids` text NOT NULL,
	`confidence` real,
	`high_stakes` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_claims_id` ON `ledger_claims` (`id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_claims_n` ON `ledger_claims` (`org_id`, `plan_id`, `n`);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_claims_text` ON `ledger_claims` (`org_id`, `plan_id`, `subtopic_key`, `normalized`);
--> statement-breakpoint
CREATE TABLE `ledger_verdicts` (
	`org_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`claim_n` integer NOT NULL,
	`kind` text NOT NULL,
	`judge` text NOT NULL,
	`shard` integer,
	`verdict` text NOT NULL,
	`reasoning` text,
	`confidence` real,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `plan_id`, `claim_n`, `kind`, `judge`)
);
--> statement-breakpoint
CREATE VIRTUAL TABLE `ledger_claims_fts` USING fts5(
	text, subtopic,
	content='ledger_claims', content_rowid='seq',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_fts_insert` AFTER INSERT ON `ledger_claims` BEGIN
	INSERT INTO ledger_claims_fts(rowid, text, subtopic) VALUES (new.seq, new.text, new.subtopic);
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_fts_delete` AFTER DELETE ON `ledger_claims` BEGIN
	INSERT INTO ledger_claims_fts(ledger_claims_fts, rowid, text, subtopic) VALUES ('delete', old.seq, old.text, old.subtopic);
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_fts_update` AFTER UPDATE OF `text`, `subtopic` ON `ledger_claims` BEGIN
	INSERT INTO ledger_claims_fts(ledger_claims_fts, rowid, text, subtopic) VALUES ('delete', old.seq, old.text, old.subtopic);
	INSERT INTO ledger_claims_fts(rowid, text, subtopic) VALUES (new.seq, new.text, new.subtopic);
END;
