CREATE TABLE `artifact_versions` (
	`artifact_id` text NOT NULL,
	`version` integer NOT NULL,
	`org_id` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`content_text` text NOT NULL,
	`confidence` real,
	`tags` text NOT NULL,
	`source_url` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`artifact_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `artifacts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`artifact_type` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`content_text` text NOT NULL,
	`confidence` real,
	`plan_id` text,
	`step_id` text,
	`tags` text NOT NULL,
	`tag_index` text NOT NULL,
	`source_url` text,
	`version` integer NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artifacts_id_unique` ON `artifacts` (`id`);--> statement-breakpoint
CREATE INDEX `artifacts_org_updated` ON `artifacts` (`org_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `artifacts_org_plan` ON `artifacts` (`org_id`,`plan_id`);--> statement-breakpoint
ALTER TABLE `plans` ADD `research_question` text DEFAULT '' NOT NULL;