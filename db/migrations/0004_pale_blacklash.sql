ALTER TABLE `businesses` ADD `alert_threshold` real;--> statement-breakpoint
CREATE UNIQUE INDEX `review_alerts_review_idx` ON `review_alerts` (`business_id`,`platform`,coalesce(`review_author`, ''),coalesce(`review_date`, 0),`review_rating`);
