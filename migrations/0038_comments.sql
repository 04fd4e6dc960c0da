-- People's comments on a deliverable (output_id) or on a step's result (plan_id, step_id), optionally anchored to a
-- heading or a quoted passage (src/storage/comment-repository.ts). A deliverable's comment keeps its plan too, so a
-- plan's read lists them. `reply_to` names the thread's first comment; a thread's resolution (and the deliverable
-- version that answered it) is written on every comment of it. In the org's home database; exported, erased with the org.
CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`output_id` text,
	`plan_id` text,
	`step_id` text,
	`reply_to` text,
	`body` text NOT NULL,
	`anchor_heading` text,
	`anchor_quote` text,
	`author_user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	`answered_by_output_id` text,
	`answered_by_version` integer
);
--> statement-breakpoint
CREATE INDEX `comments_output` ON `comments` (`org_id`,`output_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_plan` ON `comments` (`org_id`,`plan_id`,`created_at`);--> statement-breakpoint
-- The erasure write gate (migration 0018), as on the other research tables: a comment made during an erasure is not kept.
CREATE TRIGGER `comments_org_write_gate` BEFORE INSERT ON `comments`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
