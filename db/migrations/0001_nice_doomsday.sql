ALTER TABLE `reports` ADD `token` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `data` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `email_claimed_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `email_sent_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `email_message_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_token_unique` ON `reports` (`token`);