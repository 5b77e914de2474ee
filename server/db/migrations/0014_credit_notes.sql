CREATE SEQUENCE "public"."credit_note_numbers" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "credit_note_number" bigint;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_credit_note_number_unique" UNIQUE("credit_note_number");--> statement-breakpoint
-- Refunds processed before credit notes existed get theirs now, numbered in the order they were processed.
WITH "ordered" AS (
  SELECT "id", nextval('"public"."credit_note_numbers"') AS "n"
  FROM (SELECT "id" FROM "refunds" WHERE "status" = 'processed' ORDER BY "processed_at", "id") AS "processed"
)
UPDATE "refunds" SET "credit_note_number" = "ordered"."n" FROM "ordered" WHERE "refunds"."id" = "ordered"."id";
