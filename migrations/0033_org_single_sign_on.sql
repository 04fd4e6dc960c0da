-- An org's OpenID Connect single sign-on (src/domain/auth/sso/config.ts): its provider (issuer and the discovery
-- document read when saved), the client Cairn is there (the secret sealed with WEBHOOK_SECRET_KEYS, never in clear),
-- the role a newcomer gets, and whether password sign-in is refused for the org's members. Hand-written.
CREATE TABLE `org_sso` (
	`org_id` text PRIMARY KEY NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret_sealed` text NOT NULL,
	`provider_metadata` text NOT NULL,
	`default_role` text NOT NULL,
	`required` integer NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- The e-mail domains an org's provider signs in: one org per domain, so an address leads to exactly one provider.
CREATE TABLE `org_sso_domains` (
	`domain` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `org_sso_domains_org` ON `org_sso_domains` (`org_id`);
--> statement-breakpoint
-- A break-glass admin the operator gave a password (`user add --password`) while the org requires single sign-on:
-- password sign-in stays open to them alone.
ALTER TABLE `memberships` ADD `password_break_glass_at` integer;
