-- Deliverables' files rendered once (src/storage/rendered-outputs.ts): a DOCX (and any later costly format) is kept per
-- deliverable and format, for the version, renderer and state it was made from. `state_sha256` hashes everything the
-- file shows (title, text, and its cited sources with their checks): a row is served only for that state, so a
-- re-checked source or a new version renders anew, and storing a file replaces the one kept before. Not exported (a
-- cache); erased with the org's research.
CREATE TABLE `rendered_files` (
	`org_id` text NOT NULL,
	`output_id` text NOT NULL,
	`format` text NOT NULL,
	`version` integer NOT NULL,
	`renderer` integer NOT NULL,
	`state_sha256` text NOT NULL,
	`body` blob NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `output_id`, `format`)
);
--> statement-breakpoint
-- The erasure write gate (migration 0018), as on the other research tables: a render finishing during an erasure keeps nothing.
CREATE TRIGGER `rendered_files_org_write_gate` BEFORE INSERT ON `rendered_files`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
