ALTER TABLE "websites" ADD COLUMN "billing_interval" text NOT NULL DEFAULT 'year';
--> statement-breakpoint
-- Existing sites take the interval of their plan: the monthly plans in content/services are the ones whose id ends in -monthly.
UPDATE "websites" SET "billing_interval" = 'month' WHERE "plan_id" LIKE '%-monthly';
--> statement-breakpoint
ALTER TABLE "websites" ALTER COLUMN "billing_interval" DROP DEFAULT;
