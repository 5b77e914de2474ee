ALTER TABLE "refunds" ADD COLUMN "taxable_amount" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "tax_amount" integer;--> statement-breakpoint
-- Every refund so far was of a whole order: its credit note states the invoice's own split.
UPDATE "refunds" SET "taxable_amount" = "orders"."taxable_amount", "tax_amount" = "orders"."tax_amount" FROM "orders" WHERE "orders"."id" = "refunds"."order_id";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "taxable_amount" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "tax_amount" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_split" CHECK ("refunds"."amount" > 0 and "refunds"."tax_amount" >= 0 and "refunds"."taxable_amount" + "refunds"."tax_amount" = "refunds"."amount");
