ALTER TABLE "feedback" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "reply" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_hidden_has_reason" CHECK (("feedback"."hidden_at" is null) = ("feedback"."hidden_reason" is null));