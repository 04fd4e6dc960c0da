-- Who in the org may share a deliverable by link: 'members' (any member), 'admins', or 'off' (no one; existing links stop answering).
ALTER TABLE `orgs` ADD `sharing` text DEFAULT 'members' NOT NULL;--> statement-breakpoint
-- Share links (src/storage/output-shares.ts): a read-only link to one deliverable, for people outside the org. Kept in the
-- directory (the public page finds the org from the link alone). Only the SHA-256 of the link's token is stored: the
-- link is shown once, when it is made. `views` counts the page's answers; `revoked_at` ends a link before `expires_at`.
-- Not exported (a link is a credential); erased with the org's research.
CREATE TABLE `output_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`output_id` text NOT NULL,
	`token_sha256` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`views` integer DEFAULT 0 NOT NULL,
	`last_viewed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `output_shares_token` ON `output_shares` (`token_sha256`);--> statement-breakpoint
CREATE INDEX `output_shares_output` ON `output_shares` (`org_id`, `output_id`, `created_at`);--> statement-breakpoint
-- The erasure write gate (migration 0018), as on the research tables: a link made during an erasure is not kept.
CREATE TRIGGER `output_shares_org_write_gate` BEFORE INSERT ON `output_shares`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
