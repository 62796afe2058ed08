-- Named leases across processes (issue 39, decision 0221): one subscription start per user at a time
-- on every machine sharing the database.
CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
