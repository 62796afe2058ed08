CREATE TABLE `provider_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL,
	`at` integer NOT NULL,
	`provider` text NOT NULL,
	`sku` text NOT NULL,
	`status` integer NOT NULL,
	`subject_type` text,
	`subject_id` text
);
--> statement-breakpoint
CREATE INDEX `provider_calls_day_idx` ON `provider_calls` (`day`,`provider`,`sku`);--> statement-breakpoint
CREATE INDEX `provider_calls_subject_idx` ON `provider_calls` (`subject_id`);