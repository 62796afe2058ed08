CREATE TABLE `branding_logos` (
	`file` text PRIMARY KEY NOT NULL,
	`profile_id` text NOT NULL,
	`png` blob NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `branding_profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `branding_logos_profile_id_idx` ON `branding_logos` (`profile_id`);--> statement-breakpoint
CREATE TABLE `data_export_chunks` (
	`export_id` text NOT NULL,
	`attempt` text NOT NULL,
	`seq` integer NOT NULL,
	`bytes` blob NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`export_id`, `attempt`, `seq`),
	FOREIGN KEY (`export_id`) REFERENCES `data_exports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `data_exports` ADD `archive` text;