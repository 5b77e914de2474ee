ALTER TABLE "websites" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
UPDATE "websites" SET "cancelled_by" = CASE
  WHEN EXISTS (SELECT 1 FROM "audit_log" WHERE "action" = 'website.cancel' AND "subject_kind" = 'website' AND "subject_id" = "websites"."id"::text) THEN 'staff'
  WHEN EXISTS (
    SELECT 1 FROM "website_periods" "p"
    JOIN "orders" "o" ON "o"."id" = "p"."order_id"
    JOIN "refunds" "r" ON "r"."order_id" = "p"."order_id"
    WHERE "p"."website_id" = "websites"."id" AND "r"."status" <> 'failed' AND "r"."amount" = "o"."amount"
      AND "p"."starts_at" = (SELECT min("starts_at") FROM "website_periods" WHERE "website_id" = "websites"."id")
  ) THEN 'refund'
  ELSE 'owner'
END
WHERE "cancelled_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_cancelled_by_whom" CHECK (("websites"."cancelled_at" is null) = ("websites"."cancelled_by" is null) and "websites"."cancelled_by" in ('owner', 'staff', 'refund'));
