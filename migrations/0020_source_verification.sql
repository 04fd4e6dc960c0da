-- Verified sources: each recorded source is checked after it is recorded (a queue consumer fetches the page
-- and looks for the quote in it). The verdict lands here: status is pending | verified | partial | not_found |
-- unreachable | unchecked; NULL for sources recorded before verification existed (read as unchecked).
-- verification_requested_at counts the org's checks against its per-minute and per-day limits.
ALTER TABLE `ledger_evidence` ADD `verification_status` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_reason` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_score` real;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_passage` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_basis` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_title_mismatch` integer;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_snapshot` text;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_requested_at` integer;--> statement-breakpoint
ALTER TABLE `ledger_evidence` ADD `verification_checked_at` integer;--> statement-breakpoint
CREATE INDEX `ledger_evidence_verification_requests` ON `ledger_evidence` (`org_id`, `verification_requested_at`) WHERE `verification_requested_at` IS NOT NULL;
