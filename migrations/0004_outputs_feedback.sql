CREATE TABLE `research_feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`plan_id` text,
	`output_id` text,
	`execution_id` text,
	`phase` text NOT NULL,
	`satisfaction` integer,
	`summary` text NOT NULL,
	`improvement_suggestions` text NOT NULL,
	`follow_up_requested` integer NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `research_feedback_org_created` ON `research_feedback` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `research_feedback_org_plan` ON `research_feedback` (`org_id`,`plan_id`);--> statement-breakpoint
CREATE TABLE `research_output_versions` (
	`output_id` text NOT NULL,
	`version` integer NOT NULL,
	`org_id` text NOT NULL,
	`title` text NOT NULL,
	`media_type` text NOT NULL,
	`content` text NOT NULL,
	`formatting_instructions` text,
	`citations` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`output_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `research_outputs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`plan_id` text,
	`execution_id` text,
	`title` text NOT NULL,
	`media_type` text NOT NULL,
	`content` text NOT NULL,
	`formatting_instructions` text,
	`citations` text NOT NULL,
	`version` integer NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `research_outputs_id_unique` ON `research_outputs` (`id`);--> statement-breakpoint
CREATE INDEX `research_outputs_org_updated` ON `research_outputs` (`org_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `research_outputs_org_plan` ON `research_outputs` (`org_id`,`plan_id`);