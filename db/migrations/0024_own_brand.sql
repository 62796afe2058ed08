-- Other locations of the business's brand among its competitors (issue 46, decision 0235): the
-- competitor row says what told it, the business whether its rank counts them (not by default).
ALTER TABLE `businesses` ADD `rank_with_branches` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `competitors` ADD `brand` text;