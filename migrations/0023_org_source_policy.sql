-- The org's source policy: domains whose evidence record_evidence refuses, and domains the ledger counts as preferred.
-- Each a JSON array of normalized domain names (lower case, punycode), at most 500 of 253 characters.
ALTER TABLE `orgs` ADD `source_blocked_domains` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `orgs` ADD `source_preferred_domains` text DEFAULT '[]' NOT NULL;
