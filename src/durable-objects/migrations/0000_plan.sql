CREATE TABLE `audit` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action` text NOT NULL,
	`step_id` text,
	`detail` text NOT NULL,
	`actor_user_id` text NOT NULL,
	`actor_client_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payload` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `plan` (
	`plan_id` text PRIMARY KEY NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `steps` (
	`step_id` text PRIMARY KEY NOT NULL,
	`step_order` integer NOT NULL,
	`data` text NOT NULL,
	`result` text,
	`execution_report` text
);
--> statement-breakpoint
CREATE TABLE `versions` (
	`version` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`rationale` text NOT NULL,
	`before` text NOT NULL,
	`after` text NOT NULL,
	`actor_user_id` text NOT NULL,
	`actor_client_id` text,
	`created_at` integer NOT NULL
);
