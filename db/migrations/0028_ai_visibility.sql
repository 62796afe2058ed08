CREATE TABLE `ai_visibility_scans` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`keyword` text NOT NULL,
	`location` text NOT NULL,
	`question` text NOT NULL,
	`scanned_at` integer NOT NULL,
	`sample` integer DEFAULT false NOT NULL,
	`engines` text NOT NULL,
	`competitors` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`usd_micros` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_visibility_scans_business_idx` ON `ai_visibility_scans` (`business_id`,`scanned_at`);--> statement-breakpoint
ALTER TABLE `provider_calls` ADD `input_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `provider_calls` ADD `output_tokens` integer DEFAULT 0 NOT NULL;