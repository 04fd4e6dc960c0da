-- Notifications to people (src/platform/notifications): a member's choice of events by e-mail, an org's channels
-- (Slack-compatible webhooks, sealed like webhook secrets; e-mail addresses), one delivery per recipient and event,
-- and each org's sends per UTC day. All in the directory database, beside the webhooks they ride on.
CREATE TABLE `notification_preferences` (
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email_events` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `notification_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`events` text NOT NULL,
	`cairn_origin` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notification_channels_org` ON `notification_channels` (`org_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`recipient` text NOT NULL,
	`user_id` text,
	`channel_id` text,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`event` text NOT NULL,
	`cairn_origin` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`sent_to` text,
	`subject` text,
	`body_text` text,
	`message_id` text,
	`sent_with` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`sent_at` integer,
	`dead_lettered_at` integer
);
--> statement-breakpoint
-- At most one message per recipient and event, however often the event is fanned out.
CREATE UNIQUE INDEX `notification_deliveries_recipient_event` ON `notification_deliveries` (`recipient`,`event_id`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_recipient_status` ON `notification_deliveries` (`recipient`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_org` ON `notification_deliveries` (`org_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_daily_usage` (
	`org_id` text NOT NULL,
	`day` text NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `day`)
);
