CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL,
	`processed_at` integer
);
--> statement-breakpoint
CREATE INDEX `stripe_events_received_at_idx` ON `stripe_events` (`received_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `billing_interval` text;--> statement-breakpoint
ALTER TABLE `users` ADD `current_period_end` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `cancel_at_period_end` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `billing_grace_until` integer;--> statement-breakpoint
CREATE INDEX `users_stripe_customer_id_idx` ON `users` (`stripe_customer_id`);