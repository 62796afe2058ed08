CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`account_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`access_token` text,
	`refresh_token` text,
	`id_token` text,
	`access_token_expires_at` integer,
	`refresh_token_expires_at` integer,
	`scope` text,
	`password` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounts_user_id_idx` ON `accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token` text NOT NULL,
	`expires_at` integer NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_unique` ON `sessions` (`token`);--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`image` text,
	`role` text NOT NULL,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`subscription_tier` text DEFAULT 'free' NOT NULL,
	`subscription_status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`identifier` text NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verifications_identifier_idx` ON `verifications` (`identifier`);--> statement-breakpoint
CREATE TABLE `business_metrics` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`competitor_id` text,
	`run_id` text NOT NULL,
	`is_main_business` integer DEFAULT false NOT NULL,
	`review_score` real,
	`digital_presence_score` real,
	`engagement_score` real,
	`market_share_score` real,
	`market_share_percent` real,
	`overall_score` real,
	`tech_stack_data` text,
	`review_velocity_data` text,
	`sentiment_data` text,
	`ad_analysis_data` text,
	`data_points` text,
	`reported_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`competitor_id`) REFERENCES `competitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `business_metrics_business_reported_idx` ON `business_metrics` (`business_id`,`reported_at`);--> statement-breakpoint
CREATE INDEX `business_metrics_competitor_id_idx` ON `business_metrics` (`competitor_id`);--> statement-breakpoint
CREATE INDEX `business_metrics_run_id_idx` ON `business_metrics` (`run_id`);--> statement-breakpoint
CREATE TABLE `businesses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`full_name` text NOT NULL,
	`email` text NOT NULL,
	`company` text NOT NULL,
	`role` text NOT NULL,
	`website` text NOT NULL,
	`address` text NOT NULL,
	`city` text NOT NULL,
	`state` text NOT NULL,
	`zip` text NOT NULL,
	`latitude` real,
	`longitude` real,
	`place_id` text,
	`category` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `businesses_user_id_idx` ON `businesses` (`user_id`);--> statement-breakpoint
CREATE INDEX `businesses_email_idx` ON `businesses` (`email`);--> statement-breakpoint
CREATE TABLE `competitors` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`name` text NOT NULL,
	`place_id` text NOT NULL,
	`address` text,
	`rating` real,
	`review_count` integer,
	`website` text,
	`phone` text,
	`latitude` real,
	`longitude` real,
	`distance_from_business` real,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `competitors_business_place_idx` ON `competitors` (`business_id`,`place_id`);--> statement-breakpoint
CREATE TABLE `consent_records` (
	`id` text PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`email` text NOT NULL,
	`text_version` text NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`consented_at` integer NOT NULL,
	`withdrawn_at` integer,
	FOREIGN KEY (`request_id`) REFERENCES `report_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `consent_records_request_id_idx` ON `consent_records` (`request_id`);--> statement-breakpoint
CREATE INDEX `consent_records_email_idx` ON `consent_records` (`email`);--> statement-breakpoint
CREATE TABLE `report_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text,
	`email` text NOT NULL,
	`fingerprint` text NOT NULL,
	`payload` text NOT NULL,
	`marketing_consent` integer DEFAULT false NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `report_requests_fingerprint_idx` ON `report_requests` (`fingerprint`,`created_at`);--> statement-breakpoint
CREATE INDEX `report_requests_business_id_idx` ON `report_requests` (`business_id`);--> statement-breakpoint
CREATE INDEX `report_requests_user_id_idx` ON `report_requests` (`user_id`);--> statement-breakpoint
CREATE INDEX `report_requests_email_idx` ON `report_requests` (`email`);--> statement-breakpoint
CREATE TABLE `branding_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`consultant_id` text NOT NULL,
	`company_name` text NOT NULL,
	`logo_url` text,
	`primary_color` text DEFAULT '#3B82F6' NOT NULL,
	`secondary_color` text DEFAULT '#1F2937' NOT NULL,
	`accent_color` text DEFAULT '#059669' NOT NULL,
	`contact_email` text,
	`contact_phone` text,
	`website` text,
	`footer_text` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `branding_profiles_consultant_id_idx` ON `branding_profiles` (`consultant_id`);--> statement-breakpoint
CREATE TABLE `clients` (
	`id` text PRIMARY KEY NOT NULL,
	`consultant_id` text NOT NULL,
	`business_id` text,
	`client_name` text NOT NULL,
	`client_email` text NOT NULL,
	`notes` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `clients_consultant_id_idx` ON `clients` (`consultant_id`);--> statement-breakpoint
CREATE INDEX `clients_business_id_idx` ON `clients` (`business_id`);--> statement-breakpoint
CREATE TABLE `consultants` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`company_name` text NOT NULL,
	`subscription_tier` text DEFAULT 'free' NOT NULL,
	`subscription_status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `consultants_user_id_unique` ON `consultants` (`user_id`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`request_id` text,
	`consultant_id` text,
	`client_id` text,
	`branding_profile_id` text,
	`run_id` text,
	`report_type` text NOT NULL,
	`pdf_url` text,
	`signed_url` text,
	`email_sent` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`request_id`) REFERENCES `report_requests`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`branding_profile_id`) REFERENCES `branding_profiles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `reports_business_id_idx` ON `reports` (`business_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `reports_request_id_idx` ON `reports` (`request_id`);--> statement-breakpoint
CREATE INDEX `reports_consultant_id_idx` ON `reports` (`consultant_id`);--> statement-breakpoint
CREATE INDEX `reports_client_id_idx` ON `reports` (`client_id`);--> statement-breakpoint
CREATE TABLE `review_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`consultant_id` text,
	`client_id` text,
	`platform` text NOT NULL,
	`review_rating` real NOT NULL,
	`review_text` text,
	`review_url` text,
	`review_author` text,
	`review_date` integer,
	`alert_triggered` integer DEFAULT false NOT NULL,
	`email_sent` integer DEFAULT false NOT NULL,
	`alert_threshold` real DEFAULT 3 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `review_alerts_business_created_idx` ON `review_alerts` (`business_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `review_alerts_consultant_id_idx` ON `review_alerts` (`consultant_id`);--> statement-breakpoint
CREATE INDEX `review_alerts_client_id_idx` ON `review_alerts` (`client_id`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`ip_address` text,
	`notified_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_messages_created_at_idx` ON `contact_messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`key` text,
	`payload` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 5 NOT NULL,
	`run_at` integer NOT NULL,
	`lease_until` integer,
	`locked_by` text,
	`progress` text,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_key_unique` ON `jobs` (`key`);--> statement-breakpoint
CREATE INDEX `jobs_claim_idx` ON `jobs` (`status`,`run_at`);--> statement-breakpoint
CREATE INDEX `jobs_lease_idx` ON `jobs` (`status`,`lease_until`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`reset_at` integer NOT NULL
);
