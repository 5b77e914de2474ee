ALTER TABLE "websites" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_suspended_has_reason" CHECK (("websites"."suspended_at" is null) = ("websites"."suspended_reason" is null));