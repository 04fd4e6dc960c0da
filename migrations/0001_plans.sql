CREATE TABLE `plans` (
	`plan_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`derived_status` text NOT NULL,
	`progress` integer NOT NULL,
	`stalled` integer NOT NULL,
	`total_steps` integer NOT NULL,
	`completed_steps` integer NOT NULL,
	`failed_steps` integer NOT NULL,
	`current_step_order` integer,
	`session_id` text,
	`execution_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`index_seq` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plans_org_status` ON `plans` (`org_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `plans_org_updated` ON `plans` (`org_id`,`updated_at`,`plan_id`);