CREATE TABLE `email_opt_outs` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`report_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `email_opt_outs_email_idx` ON `email_opt_outs` (`email`);--> statement-breakpoint
ALTER TABLE `reports` ADD `recipient_email` text;