ALTER TABLE `branding_profiles` ADD `is_default` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `branding_profiles` ADD `powered_by` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `branding_profile_id` text REFERENCES branding_profiles(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `clients` ADD `report_frequency` text DEFAULT 'monthly' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `archived_at` integer;--> statement-breakpoint
CREATE INDEX `clients_branding_profile_id_idx` ON `clients` (`branding_profile_id`);--> statement-breakpoint
ALTER TABLE `reports` ADD `cc_email` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `opened_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `failed_at` integer;