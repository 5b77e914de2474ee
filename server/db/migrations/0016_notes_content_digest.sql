ALTER TABLE "notes" ADD COLUMN "content_digest" text;--> statement-breakpoint
CREATE INDEX "notes_user_digest_idx" ON "notes" USING btree ("user_id","content_digest");