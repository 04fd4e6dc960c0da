-- Webhook events decided in the Worker (a deliverable stored) wait here, written in the same batch as the
-- change they announce, until the webhook queue has taken them: nothing relies on a send succeeding at once.
-- In every database an org may call home (the deliverable's own), so the write and the event commit together.
CREATE TABLE `webhook_event_outbox` (
	`event_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`payload` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`next_attempt_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_event_outbox_due` ON `webhook_event_outbox` (`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_event_outbox_org` ON `webhook_event_outbox` (`org_id`);--> statement-breakpoint
-- When the dead-letter queue took a delivery out of retries.
ALTER TABLE `webhook_deliveries` ADD `dead_lettered_at` integer;--> statement-breakpoint
-- The sweeper finds deliveries left pending without a queue message by status and age.
CREATE INDEX `webhook_deliveries_status_updated` ON `webhook_deliveries` (`status`,`updated_at`);
