-- Keep checking after delivery: which ledger sources each stored deliverable cites (directly or through the
-- claims it cites), with each one's verdict at delivery. Rows are the deliverable's current version's: a new
-- version replaces them, in the batch that stores it. `delivered_status` is the source's verification status
-- when the deliverable was stored ('pending' until the first verdict lands, which then stands for delivery);
-- `announced` is the last change a webhook announced ('changed' | 'gone'; NULL: none), so a re-check that
-- finds nothing new announces nothing again. Rebuilt on import (a file never says what Cairn verified).
CREATE TABLE `research_output_sources` (
	`org_id` text NOT NULL,
	`output_id` text NOT NULL,
	`version` integer NOT NULL,
	`plan_id` text NOT NULL,
	`n` integer NOT NULL,
	`delivered_status` text NOT NULL,
	`delivered_snapshot` text,
	`delivered_at` integer NOT NULL,
	`announced` text,
	`announced_at` integer,
	PRIMARY KEY(`org_id`, `output_id`, `plan_id`, `n`)
);
--> statement-breakpoint
CREATE INDEX `research_output_sources_evidence` ON `research_output_sources` (`org_id`, `plan_id`, `n`);--> statement-breakpoint
-- A re-check keeps the snapshot the source was verified on before, so a person can compare the two; and marks a
-- source that was verified and no longer is ('changed': the quote is gone from the page; 'gone': the page is
-- unreachable), so claims resting on it are flagged for re-verification. Cleared when a re-check verifies it again.
ALTER TABLE `ledger_evidence` ADD `verification_previous_snapshot` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_changed` text;
--> statement-breakpoint
-- The erasure write gate (migration 0018), as on the other research tables.
CREATE TRIGGER `research_output_sources_org_write_gate` BEFORE INSERT ON `research_output_sources`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
