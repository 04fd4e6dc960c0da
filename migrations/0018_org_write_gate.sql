-- The databases' own write gate for org erasure: a row for an org whose erasure has begun (orgs.erasing_since),
-- or that no longer exists, is refused by the database itself, in the statement that writes it. A write that passed
-- the application's gate just before the erasure's mark and lands after it then fails instead of leaving an orphan
-- row behind (most of these tables have no foreign key to orgs). Every database has the org's row: the directory,
-- and each home database its own copy, which the erasure marks too. The message is DATABASE_GATE_MESSAGE in
-- src/domain/org-data/write-gate.ts. Logs written in batches across orgs (tool calls, webhook deliveries) skip the
-- row instead, so one erased org never fails another org's entries.

CREATE TRIGGER `audit_log_org_write_gate` BEFORE INSERT ON `audit_log`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `skill_executions_org_write_gate` BEFORE INSERT ON `skill_executions`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `plans_org_write_gate` BEFORE INSERT ON `plans`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_org_write_gate` BEFORE INSERT ON `artifacts`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `artifact_versions_org_write_gate` BEFORE INSERT ON `artifact_versions`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `research_outputs_org_write_gate` BEFORE INSERT ON `research_outputs`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `research_output_versions_org_write_gate` BEFORE INSERT ON `research_output_versions`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `research_feedback_org_write_gate` BEFORE INSERT ON `research_feedback`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `evidence_ledgers_org_write_gate` BEFORE INSERT ON `evidence_ledgers`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_evidence_org_write_gate` BEFORE INSERT ON `ledger_evidence`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_claims_org_write_gate` BEFORE INSERT ON `ledger_claims`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_verdicts_org_write_gate` BEFORE INSERT ON `ledger_verdicts`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `search_sessions_org_write_gate` BEFORE INSERT ON `search_sessions`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `webhook_subscriptions_org_write_gate` BEFORE INSERT ON `webhook_subscriptions`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `tool_call_log_org_write_gate` BEFORE INSERT ON `tool_call_log`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(IGNORE); END;
--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_org_write_gate` BEFORE INSERT ON `webhook_deliveries`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(IGNORE); END;
