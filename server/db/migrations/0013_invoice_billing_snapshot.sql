ALTER TABLE "certificates" ADD COLUMN "name_corrected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "original_learner_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_email" text;--> statement-breakpoint
-- Backfill: orders paid before this migration get "Billed to" from the account as it is now, which
-- is what their invoices printed until today (they read the live profile). Orders whose buyer
-- deleted their account have no account to read and stay empty, as the privacy policy promises.
-- Certificates need no backfill: the learner's name has been stored on the row since they were
-- introduced (0004), so original_learner_name and name_corrected_at stay empty until a correction.
UPDATE "orders" SET "billing_name" = "user"."name", "billing_email" = "user"."email"
FROM "user"
WHERE "user"."id" = "orders"."user_id" AND "orders"."status" IN ('paid', 'refunded');--> statement-breakpoint
-- One rule on every path that pays an order (a captured payment, a free enrolment): the buyer's
-- details are copied once, when the order becomes paid, and never change after that; deleting
-- the account (user_id set to null by its foreign key) removes them.
CREATE FUNCTION "orders_billing_details"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."user_id" IS NULL THEN
    NEW."billing_name" := NULL;
    NEW."billing_email" := NULL;
  ELSIF TG_OP = 'UPDATE' AND OLD."billing_name" IS NOT NULL THEN
    NEW."billing_name" := OLD."billing_name";
    NEW."billing_email" := OLD."billing_email";
  ELSIF NEW."status" = 'paid' THEN
    SELECT "name", "email" INTO NEW."billing_name", NEW."billing_email" FROM "user" WHERE "id" = NEW."user_id";
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_billing_details" BEFORE INSERT OR UPDATE ON "orders" FOR EACH ROW EXECUTE FUNCTION "orders_billing_details"();
