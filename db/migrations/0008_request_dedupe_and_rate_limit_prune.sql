ALTER TABLE `report_requests` ADD `dedupe_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `report_requests_dedupe_key_idx` ON `report_requests` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `rate_limits_reset_at_idx` ON `rate_limits` (`reset_at`);