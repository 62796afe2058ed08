DROP INDEX `branding_profiles_custom_domain_unique`;--> statement-breakpoint
ALTER TABLE `branding_profiles` ADD `domain_claimed_at` integer;--> statement-breakpoint
ALTER TABLE `branding_profiles` ADD `domain_released` text;--> statement-breakpoint
CREATE INDEX `branding_profiles_custom_domain_idx` ON `branding_profiles` (`custom_domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `branding_profiles_verified_domain_unique` ON `branding_profiles` (`custom_domain`) WHERE domain_verified_at IS NOT NULL;--> statement-breakpoint
-- Claims made before this migration count from now: they get their 7 days to be verified.
UPDATE `branding_profiles` SET `domain_claimed_at` = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) WHERE `custom_domain` IS NOT NULL AND `domain_verified_at` IS NULL;
