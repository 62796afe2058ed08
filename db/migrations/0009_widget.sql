CREATE TABLE `widget_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`consultant_id` text NOT NULL,
	`name` text NOT NULL,
	`publishable_key` text NOT NULL,
	`allowed_hostnames` text NOT NULL,
	`branding_profile_id` text,
	`components` text NOT NULL,
	`score_card_client_id` text,
	`lead_emails` text DEFAULT 'each' NOT NULL,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`branding_profile_id`) REFERENCES `branding_profiles`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`score_card_client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `widget_keys_publishable_key_unique` ON `widget_keys` (`publishable_key`);--> statement-breakpoint
CREATE INDEX `widget_keys_consultant_id_idx` ON `widget_keys` (`consultant_id`);--> statement-breakpoint
CREATE INDEX `widget_keys_branding_profile_id_idx` ON `widget_keys` (`branding_profile_id`);--> statement-breakpoint
CREATE INDEX `widget_keys_score_card_client_id_idx` ON `widget_keys` (`score_card_client_id`);--> statement-breakpoint
CREATE TABLE `widget_leads` (
	`id` text PRIMARY KEY NOT NULL,
	`consultant_id` text NOT NULL,
	`widget_key_id` text,
	`branding_profile_id` text,
	`full_name` text NOT NULL,
	`email` text NOT NULL,
	`company` text NOT NULL,
	`payload` text NOT NULL,
	`source_hostname` text NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`status` text NOT NULL,
	`queued_reason` text,
	`request_id` text,
	`client_id` text,
	`notified_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`widget_key_id`) REFERENCES `widget_keys`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`branding_profile_id`) REFERENCES `branding_profiles`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`request_id`) REFERENCES `report_requests`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `widget_leads_consultant_created_idx` ON `widget_leads` (`consultant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `widget_leads_status_idx` ON `widget_leads` (`status`);--> statement-breakpoint
CREATE INDEX `widget_leads_widget_key_id_idx` ON `widget_leads` (`widget_key_id`);--> statement-breakpoint
CREATE INDEX `widget_leads_branding_profile_id_idx` ON `widget_leads` (`branding_profile_id`);--> statement-breakpoint
CREATE INDEX `widget_leads_request_id_idx` ON `widget_leads` (`request_id`);--> statement-breakpoint
CREATE INDEX `widget_leads_client_id_idx` ON `widget_leads` (`client_id`);