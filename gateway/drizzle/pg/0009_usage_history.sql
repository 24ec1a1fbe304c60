CREATE TABLE "usage_hourly" (
	"hour" bigint NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"unpriced" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hourly_hour_provider_model_pk" PRIMARY KEY("hour","provider","model"),
	CONSTRAINT "usage_hourly_hour_aligned" CHECK ("usage_hourly"."hour" % 3600 = 0)
);
