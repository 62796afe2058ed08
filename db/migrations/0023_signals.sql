-- Counters every process polls (decision 0242): `report-files` goes up with each erasure, so every
-- machine sweeps its cached report files within seconds rather than at its 10-minute sweep.
CREATE TABLE `signals` (
	`name` text PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL
);
