ALTER TABLE `business_metrics` ADD `local_voice_share` real;--> statement-breakpoint
ALTER TABLE `business_metrics` ADD `visibility` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `visibility_keywords` text;