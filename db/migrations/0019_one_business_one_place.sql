-- One business per place and owner (decision 0212): the businesses that repeated report requests
-- made for one place are merged into one, its history whole. First a consultant's client: a
-- business of the consultant's account at the client's place whose every request was reported
-- for that client joins the client's business. Then each account: its businesses at one place
-- (same street line and ZIP, or the same real listing id) join the oldest. The survivor keeps the
-- newest details and, per setting, the newest that was set; competitors, snapshots, review
-- alerts, reports, requests, clients and queued jobs move to it. Visitors' businesses (no account)
-- are left as they are. Runs with foreign keys off (libSQL's migrate), so every row that names a
-- merged business is moved here before the business goes.
CREATE TABLE `_place_keys` (`id` text PRIMARY KEY NOT NULL, `user_id` text, `created_at` integer NOT NULL, `address_key` text NOT NULL, `listing` text, `rank` integer NOT NULL, `label` integer NOT NULL);
--> statement-breakpoint
-- rank: the business's age order (created_at, id); label: the rank of the oldest business of its
-- place and owner found so far.
INSERT INTO `_place_keys`
SELECT id, user_id, created_at,
  substr(replace(replace(trim(zip), ' ', ''), '-', ''), 1, 5) || '|' ||
    lower(trim(replace(replace(replace(replace(replace(replace(address, '.', ' '), ',', ' '), char(9), ' '), '  ', ' '), '  ', ' '), '  ', ' '))),
  CASE WHEN place_id IS NULL OR place_id LIKE 'input:%' OR place_id LIKE 'sample-%' THEN NULL ELSE place_id END,
  row_number() OVER (ORDER BY created_at, id), row_number() OVER (ORDER BY created_at, id)
FROM businesses;
--> statement-breakpoint
CREATE INDEX `_place_keys_address_idx` ON `_place_keys` (`user_id`, `address_key`);
--> statement-breakpoint
CREATE INDEX `_place_keys_listing_idx` ON `_place_keys` (`user_id`, `listing`);
--> statement-breakpoint
CREATE UNIQUE INDEX `_place_keys_rank_idx` ON `_place_keys` (`rank`);
--> statement-breakpoint
CREATE TABLE `_place_merges` (`from_id` text PRIMARY KEY NOT NULL, `into_id` text NOT NULL);
--> statement-breakpoint
CREATE INDEX `_place_merges_into_idx` ON `_place_merges` (`into_id`);
--> statement-breakpoint
-- A consultant's client: b is the consultant's own, at the client's place, no client's business,
-- and every one of its requests has a report for this client.
INSERT INTO `_place_merges`
SELECT b.id, min(cl.business_id)
FROM clients cl
JOIN consultants c ON c.id = cl.consultant_id
JOIN `_place_keys` ck ON ck.id = cl.business_id AND ck.user_id IS NULL
JOIN `_place_keys` b ON b.user_id = c.user_id AND b.id <> ck.id AND (b.address_key = ck.address_key OR b.listing = ck.listing)
WHERE NOT EXISTS (SELECT 1 FROM clients o WHERE o.business_id = b.id)
  AND EXISTS (SELECT 1 FROM reports r WHERE r.business_id = b.id AND r.client_id = cl.id)
  AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.business_id = b.id AND (r.client_id IS NULL OR r.client_id <> cl.id))
  AND NOT EXISTS (SELECT 1 FROM report_requests q WHERE q.business_id = b.id AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.request_id = q.id))
GROUP BY b.id
HAVING count(DISTINCT cl.business_id) = 1;
--> statement-breakpoint
-- Each account's businesses at one place, linked by the street line or by the listing, join the
-- oldest of them: each round gives every business the lowest label of its street line, then of
-- its listing. Three rounds join chains of up to six links (a place written three ways, each
-- analysed), far more than repeated requests make; a longer chain stays in two businesses.
UPDATE `_place_keys` SET user_id = NULL WHERE id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
UPDATE `_place_keys` SET label = (SELECT min(o.label) FROM `_place_keys` o WHERE o.user_id = `_place_keys`.user_id AND o.address_key = `_place_keys`.address_key)
WHERE user_id IS NOT NULL;
--> statement-breakpoint
UPDATE `_place_keys` SET label = (SELECT min(o.label) FROM `_place_keys` o WHERE o.user_id = `_place_keys`.user_id AND o.listing = `_place_keys`.listing)
WHERE user_id IS NOT NULL AND listing IS NOT NULL;
--> statement-breakpoint
UPDATE `_place_keys` SET label = (SELECT min(o.label) FROM `_place_keys` o WHERE o.user_id = `_place_keys`.user_id AND o.address_key = `_place_keys`.address_key)
WHERE user_id IS NOT NULL;
--> statement-breakpoint
UPDATE `_place_keys` SET label = (SELECT min(o.label) FROM `_place_keys` o WHERE o.user_id = `_place_keys`.user_id AND o.listing = `_place_keys`.listing)
WHERE user_id IS NOT NULL AND listing IS NOT NULL;
--> statement-breakpoint
UPDATE `_place_keys` SET label = (SELECT min(o.label) FROM `_place_keys` o WHERE o.user_id = `_place_keys`.user_id AND o.address_key = `_place_keys`.address_key)
WHERE user_id IS NOT NULL;
--> statement-breakpoint
UPDATE `_place_keys` SET label = (SELECT min(o.label) FROM `_place_keys` o WHERE o.user_id = `_place_keys`.user_id AND o.listing = `_place_keys`.listing)
WHERE user_id IS NOT NULL AND listing IS NOT NULL;
--> statement-breakpoint
INSERT INTO `_place_merges`
SELECT k.id, root.id FROM `_place_keys` k JOIN `_place_keys` root ON root.rank = k.label
WHERE k.user_id IS NOT NULL AND k.label <> k.rank;
--> statement-breakpoint
CREATE TABLE `_place_groups` (`into_id` text NOT NULL, `member_id` text NOT NULL, PRIMARY KEY (`into_id`, `member_id`));
--> statement-breakpoint
INSERT INTO `_place_groups` SELECT into_id, from_id FROM `_place_merges` UNION SELECT DISTINCT into_id, into_id FROM `_place_merges`;
--> statement-breakpoint
CREATE INDEX `_place_groups_member_idx` ON `_place_groups` (`member_id`);
--> statement-breakpoint
-- The survivor's row: the newest details (the latest request's), and per setting the newest one
-- set (a threshold set on the first business outlives a later business that never had one).
UPDATE businesses SET
  full_name = n.full_name, email = n.email, company = n.company, role = n.role, website = n.website,
  address = n.address, city = n.city, state = n.state, zip = n.zip,
  latitude = (SELECT g.latitude FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = n.into_id AND g.latitude IS NOT NULL ORDER BY g.updated_at DESC LIMIT 1),
  longitude = (SELECT g.longitude FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = n.into_id AND g.longitude IS NOT NULL ORDER BY g.updated_at DESC LIMIT 1),
  place_id = (SELECT g.place_id FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = n.into_id AND g.place_id IS NOT NULL ORDER BY g.updated_at DESC LIMIT 1),
  category = (SELECT g.category FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = n.into_id AND g.category IS NOT NULL ORDER BY g.updated_at DESC LIMIT 1),
  alert_threshold = (SELECT g.alert_threshold FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = n.into_id AND g.alert_threshold IS NOT NULL ORDER BY g.updated_at DESC LIMIT 1),
  visibility_keywords = (SELECT g.visibility_keywords FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = n.into_id AND g.visibility_keywords IS NOT NULL ORDER BY g.updated_at DESC LIMIT 1),
  created_at = n.first_at,
  updated_at = n.last_at
FROM (
  SELECT m.into_id, newest.full_name, newest.email, newest.company, newest.role, newest.website, newest.address, newest.city, newest.state, newest.zip,
    (SELECT min(g.created_at) FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = m.into_id) AS first_at,
    (SELECT max(g.updated_at) FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = m.into_id) AS last_at
  FROM (SELECT DISTINCT into_id FROM `_place_merges`) m
  JOIN businesses newest ON newest.id = (
    SELECT g.id FROM businesses g JOIN `_place_groups` p ON p.member_id = g.id WHERE p.into_id = m.into_id ORDER BY g.created_at DESC, g.id DESC LIMIT 1)
) n
WHERE businesses.id = n.into_id;
--> statement-breakpoint
-- Competitors: one row per place of the survivor (a unique index), the survivor's own if it has
-- one, else the latest written; snapshots that named another row name that one.
CREATE TABLE `_place_competitors` (`old_id` text PRIMARY KEY NOT NULL, `new_id` text NOT NULL);
--> statement-breakpoint
INSERT INTO `_place_competitors`
SELECT c.id, (
  SELECT k.id FROM competitors k JOIN `_place_groups` q ON q.member_id = k.business_id
  WHERE q.into_id = p.into_id AND k.place_id = c.place_id
  ORDER BY k.business_id = q.into_id DESC, k.created_at DESC, k.id LIMIT 1)
FROM competitors c JOIN `_place_groups` p ON p.member_id = c.business_id;
--> statement-breakpoint
UPDATE business_metrics SET competitor_id = (SELECT new_id FROM `_place_competitors` WHERE old_id = business_metrics.competitor_id)
WHERE competitor_id IN (SELECT old_id FROM `_place_competitors` WHERE old_id <> new_id);
--> statement-breakpoint
DELETE FROM competitors WHERE id IN (SELECT old_id FROM `_place_competitors` WHERE old_id <> new_id);
--> statement-breakpoint
UPDATE competitors SET business_id = (SELECT into_id FROM `_place_merges` WHERE from_id = competitors.business_id)
WHERE business_id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
-- Review alerts: one per review (a unique index). Two businesses of one place saw the same
-- reviews: the survivor's alert stays, else the first one raised (the one the owner was sent).
DELETE FROM review_alerts WHERE id IN (
  SELECT a.id FROM review_alerts a JOIN `_place_merges` m ON m.from_id = a.business_id
  WHERE EXISTS (
    SELECT 1 FROM review_alerts o JOIN `_place_groups` q ON q.member_id = o.business_id
    WHERE q.into_id = m.into_id AND o.id <> a.id AND o.platform = a.platform
      AND coalesce(o.review_author, '') = coalesce(a.review_author, '') AND coalesce(o.review_date, 0) = coalesce(a.review_date, 0)
      AND o.review_rating = a.review_rating
      AND (o.business_id = m.into_id OR o.created_at < a.created_at OR (o.created_at = a.created_at AND o.id < a.id))));
--> statement-breakpoint
UPDATE review_alerts SET business_id = (SELECT into_id FROM `_place_merges` WHERE from_id = review_alerts.business_id)
WHERE business_id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
UPDATE business_metrics SET business_id = (SELECT into_id FROM `_place_merges` WHERE from_id = business_metrics.business_id)
WHERE business_id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
UPDATE reports SET business_id = (SELECT into_id FROM `_place_merges` WHERE from_id = reports.business_id)
WHERE business_id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
UPDATE report_requests SET business_id = (SELECT into_id FROM `_place_merges` WHERE from_id = report_requests.business_id)
WHERE business_id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
UPDATE clients SET business_id = (SELECT into_id FROM `_place_merges` WHERE from_id = clients.business_id)
WHERE business_id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
-- Work not yet done names the survivor (a finished job's record stays as it ran).
UPDATE jobs SET payload = json_set(payload, '$.businessId', (SELECT into_id FROM `_place_merges` WHERE from_id = json_extract(jobs.payload, '$.businessId')))
WHERE status IN ('queued', 'running') AND json_extract(payload, '$.businessId') IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
DELETE FROM businesses WHERE id IN (SELECT from_id FROM `_place_merges`);
--> statement-breakpoint
DROP TABLE `_place_competitors`;
--> statement-breakpoint
DROP TABLE `_place_groups`;
--> statement-breakpoint
DROP TABLE `_place_merges`;
--> statement-breakpoint
DROP TABLE `_place_keys`;
