CREATE TABLE "encryption_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"check_value" text NOT NULL,
	"current" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "encryption_keys_one_current_idx" ON "encryption_keys" USING btree ("current") WHERE "encryption_keys"."current";