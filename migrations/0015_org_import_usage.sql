-- What each org imported per UTC day (records and bytes read), against the daily import budget.
CREATE TABLE `org_import_usage` (
	`org_id` text NOT NULL,
	`day` integer NOT NULL,
	`rows_read` integer DEFAULT 0 NOT NULL,
	`bytes_read` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `day`)
);
