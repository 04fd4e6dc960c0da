-- A running org import's heartbeat, and the journal of what it wrote (src/platform/org-data/import-journal.ts).
-- The lock (orgs.importing_since) holds the org only while its heartbeat (import_heartbeat_at) is fresh, so the
-- lock of an import whose Worker died lapses within a minute. The journal lives in every database: each batch of
-- an import's rows writes, in the same transaction, one journal row per table with the rowid range the batch
-- inserted; the plans and search sessions it recreates are journaled in the directory before their objects are
-- written. The next import or erasure of the org takes back what a dead import left, exactly, from its journal.
ALTER TABLE `orgs` ADD `import_heartbeat_at` integer;
--> statement-breakpoint
CREATE TABLE `org_import_journal` (
	`id` integer PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`import_lock` integer NOT NULL,
	`table_name` text NOT NULL,
	`first_rowid` integer,
	`last_rowid` integer,
	`object_id` text
);
--> statement-breakpoint
CREATE INDEX `org_import_journal_org_idx` ON `org_import_journal` (`org_id`,`import_lock`);
