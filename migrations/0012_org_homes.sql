ALTER TABLE `orgs` ADD `home_database` text;--> statement-breakpoint
-- Orgs that existed before placement keep their research where it is: in the directory's own database.
UPDATE `orgs` SET `home_database` = 'DB';
