ALTER TABLE `agency_mail_servers` ADD `unavailable_since` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `mail_waiting_since` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `mail_problem` text;