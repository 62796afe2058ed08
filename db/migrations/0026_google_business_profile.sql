CREATE TABLE `google_connect_states` (
	`state` text PRIMARY KEY NOT NULL,
	`session_hash` text NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text NOT NULL,
	`verifier` text NOT NULL,
	`pending_refresh_token` text,
	`choices` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `google_connect_states_created_idx` ON `google_connect_states` (`created_at`);--> statement-breakpoint
CREATE INDEX `google_connect_states_business_idx` ON `google_connect_states` (`business_id`);--> statement-breakpoint
CREATE INDEX `google_connect_states_user_idx` ON `google_connect_states` (`user_id`);--> statement-breakpoint
CREATE TABLE `google_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text,
	`status` text NOT NULL,
	`account_name` text NOT NULL,
	`location_name` text NOT NULL,
	`location_title` text NOT NULL,
	`place_id` text,
	`refresh_token` text,
	`access_token` text,
	`access_expires_at` integer,
	`full_read_at` integer,
	`last_polled_at` integer,
	`metrics_fetched_at` integer,
	`last_error` text,
	`disconnected_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `google_connections_business_idx` ON `google_connections` (`business_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `google_connections_location_idx` ON `google_connections` (`location_name`) WHERE status = 'connected';--> statement-breakpoint
CREATE INDEX `google_connections_user_idx` ON `google_connections` (`user_id`);--> statement-breakpoint
CREATE TABLE `profile_metrics` (
	`business_id` text NOT NULL,
	`day` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`website_clicks` integer DEFAULT 0 NOT NULL,
	`direction_requests` integer DEFAULT 0 NOT NULL,
	`impressions` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profile_metrics_business_day_idx` ON `profile_metrics` (`business_id`,`day`);--> statement-breakpoint
CREATE TABLE `profile_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`review_id` text NOT NULL,
	`author` text,
	`rating` real NOT NULL,
	`text` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`reply_text` text,
	`reply_updated_at` integer,
	`reply_error` text,
	`removed_at` integer,
	`seen_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profile_reviews_business_review_idx` ON `profile_reviews` (`business_id`,`review_id`);--> statement-breakpoint
CREATE INDEX `profile_reviews_business_updated_idx` ON `profile_reviews` (`business_id`,`updated_at`);