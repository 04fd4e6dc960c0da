-- An e-mail channel to an address that is not a member's own waits for the address to confirm (src/platform/notifications/
-- confirmation.ts): only a confirmation link is sent to it until the link is followed. `confirmed_at` is when it was
-- confirmed (or, for a member's own address and a Slack channel, when it was added); `confirm_token_sha256` is the SHA-256
-- of the link's token (the token itself is only in the message), cleared once used; `confirm_expires_at` ends the link.
ALTER TABLE `notification_channels` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `notification_channels` ADD `confirm_token_sha256` text;--> statement-breakpoint
ALTER TABLE `notification_channels` ADD `confirm_expires_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `notification_channels_confirm_token` ON `notification_channels` (`confirm_token_sha256`);--> statement-breakpoint
-- Channels kept from before: Slack channels and members' own addresses stand confirmed; any other address waits for a
-- confirmation its admins send from the channel's "Send a test" (nothing else reaches it until it confirms).
UPDATE `notification_channels` SET `confirmed_at` = `created_at`
WHERE `kind` = 'slack'
   OR EXISTS (SELECT 1 FROM `memberships` m JOIN `users` u ON u.`id` = m.`user_id` WHERE m.`org_id` = `notification_channels`.`org_id` AND lower(u.`email`) = `notification_channels`.`target`);
