-- When the consumer last started checking the source (src/storage/source-check-runs.ts): a check started and not yet
-- answered counts toward the org's checks in flight (SOURCE_CHECK_CONCURRENCY.perOrgInFlight) for a lease.
ALTER TABLE `ledger_evidence` ADD `verification_started_at` integer;
--> statement-breakpoint
-- When the pending sweep sent a source's check once more (it does so once; still pending later, the source ends unchecked).
ALTER TABLE `ledger_evidence` ADD `verification_requeued_at` integer;
--> statement-breakpoint
CREATE INDEX `ledger_evidence_checks_started` ON `ledger_evidence` (`org_id`, `verification_started_at`) WHERE `verification_started_at` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `ledger_evidence_pending` ON `ledger_evidence` (`verification_requested_at`) WHERE `verification_status` = 'pending';
