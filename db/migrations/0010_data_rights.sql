CREATE TABLE `data_exports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`bytes` integer,
	`ready_at` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `data_exports_user_created_idx` ON `data_exports` (`user_id`,`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_consent_records` (
	`id` text PRIMARY KEY NOT NULL,
	`request_id` text,
	`email` text NOT NULL,
	`text_version` text NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`consented_at` integer NOT NULL,
	`withdrawn_at` integer,
	FOREIGN KEY (`request_id`) REFERENCES `report_requests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_consent_records`("id", "request_id", "email", "text_version", "ip_address", "user_agent", "consented_at", "withdrawn_at") SELECT "id", "request_id", "email", "text_version", "ip_address", "user_agent", "consented_at", "withdrawn_at" FROM `consent_records`;--> statement-breakpoint
DROP TABLE `consent_records`;--> statement-breakpoint
ALTER TABLE `__new_consent_records` RENAME TO `consent_records`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `consent_records_request_id_idx` ON `consent_records` (`request_id`);--> statement-breakpoint
CREATE INDEX `consent_records_email_idx` ON `consent_records` (`email`);--> statement-breakpoint
ALTER TABLE `users` ADD `closed_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `purge_after` integer;