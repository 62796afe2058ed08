CREATE TABLE `agency_mail_servers` (
	`consultant_id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`security` text NOT NULL,
	`username` text,
	`password_encrypted` text,
	`from_address` text NOT NULL,
	`tested_at` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultant_id`) REFERENCES `consultants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `branding_profiles` ADD `custom_domain` text;--> statement-breakpoint
ALTER TABLE `branding_profiles` ADD `domain_token` text;--> statement-breakpoint
ALTER TABLE `branding_profiles` ADD `domain_verified_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `branding_profiles_custom_domain_unique` ON `branding_profiles` (`custom_domain`);