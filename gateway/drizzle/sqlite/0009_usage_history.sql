CREATE TABLE `usage_hourly` (
	`hour` integer NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cost_usd` real DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`unpriced` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`hour`, `provider`, `model`),
	CONSTRAINT "usage_hourly_hour_aligned" CHECK("usage_hourly"."hour" % 3600 = 0)
);
