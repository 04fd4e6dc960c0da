-- An org's approver group (src/domain/org-settings.ts): the members (user ids, a JSON list) who approve its plans.
-- Empty: any person who may answer an approval does, as before.
ALTER TABLE `orgs` ADD `approvers` text DEFAULT '[]' NOT NULL;
