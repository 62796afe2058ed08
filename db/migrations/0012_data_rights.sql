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
CREATE INDEX `consent_records_email_idx` ON `consent_records` (`email`);