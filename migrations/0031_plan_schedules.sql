-- Scheduled re-runs (src/domain/plans/schedule.ts): a plan's schedule is a series; the cron creates each run, a new
-- plan copied from the series' plan, when it is due. `due_index` counts due times from `start_at` (months by the
-- calendar); `status` is active, paused (after missed runs), ended (past `until`) or stopped (DELETE). Not exported
-- (the runs are plans and are); erased with the org's research.
CREATE TABLE `plan_schedules` (
	`series_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`every` text NOT NULL,
	`start_at` integer NOT NULL,
	`until` integer,
	`due_index` integer NOT NULL,
	`next_due_at` integer NOT NULL,
	`next_run_number` integer NOT NULL,
	`missed_in_a_row` integer NOT NULL,
	`status` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_schedules_org_plan` ON `plan_schedules` (`org_id`, `plan_id`);
--> statement-breakpoint
CREATE INDEX `plan_schedules_due` ON `plan_schedules` (`status`, `next_due_at`);
--> statement-breakpoint
-- One row per run: the key (series_id, run_number) is what makes a due time give exactly one run however often the
-- cron fires. `status`: due (created, waiting for an assistant), started, missed (nobody started it before the next
-- was due). `plan_created` is 0 until the run's plan exists (a tick that stopped between the two finishes it).
CREATE TABLE `plan_series_runs` (
	`series_id` text NOT NULL,
	`run_number` integer NOT NULL,
	`org_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`status` text NOT NULL,
	`plan_created` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`series_id`, `run_number`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_series_runs_org_plan` ON `plan_series_runs` (`org_id`, `plan_id`);
--> statement-breakpoint
CREATE INDEX `plan_series_runs_unfinished` ON `plan_series_runs` (`plan_created`) WHERE `plan_created` = 0;
--> statement-breakpoint
-- The erasure write gate (migration 0018), as on the other research tables.
CREATE TRIGGER `plan_schedules_org_write_gate` BEFORE INSERT ON `plan_schedules`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
--> statement-breakpoint
CREATE TRIGGER `plan_series_runs_org_write_gate` BEFORE INSERT ON `plan_series_runs`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
