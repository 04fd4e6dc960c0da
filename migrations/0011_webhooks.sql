CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_subscription_event` ON `webhook_deliveries` (`subscription_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_org_subscription` ON `webhook_deliveries` (`org_id`,`subscription_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`secret` text NOT NULL,
	`cairn_origin` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` integer,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`failing_since` integer,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_org` ON `webhook_subscriptions` (`org_id`,`created_at`);