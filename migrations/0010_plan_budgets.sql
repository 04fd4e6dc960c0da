ALTER TABLE `plans` ADD `budget_percent` integer;--> statement-breakpoint
ALTER TABLE `plans` ADD `budget_exhausted` integer DEFAULT false NOT NULL;