-- Sequential search sessions (issue #5): the org-wide index of sessions. Each
-- session's steps live in its own Durable Object (SearchSessionObject); this
-- table counts an org's active sessions for the limit, lists them, and keeps a
-- tombstone after expiry so an expired session is reported as such.
CREATE TABLE `search_sessions` (
	`session_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`created_by` text NOT NULL,
	`research_goal` text,
	`status` text NOT NULL,
	`step_count` integer NOT NULL,
	`started_at` integer NOT NULL,
	`last_activity_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `search_sessions_org_status_expiry` ON `search_sessions` (`org_id`,`status`,`expires_at`);
