-- One opt-out per address (issue 37): repeated one-click POSTs had added a row each. The latest
-- row of each address (in any case) is kept, as the rule reads it (an opt-out after the latest
-- consent), the address lower-cased, and the index made unique.
DROP INDEX `email_opt_outs_email_idx`;--> statement-breakpoint
DELETE FROM `email_opt_outs` WHERE `id` IN (
  SELECT `id` FROM (SELECT `id`, row_number() OVER (PARTITION BY lower(`email`) ORDER BY `created_at` DESC, `id` DESC) AS `n` FROM `email_opt_outs`) WHERE `n` > 1
);--> statement-breakpoint
UPDATE `email_opt_outs` SET `email` = lower(`email`) WHERE `email` <> lower(`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `email_opt_outs_email_idx` ON `email_opt_outs` (`email`);
