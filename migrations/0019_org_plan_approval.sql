-- The org's default for new plans: "required" makes every plan wait for a person's approval before its first step.
ALTER TABLE `orgs` ADD `plan_approval` text DEFAULT 'optional' NOT NULL;
