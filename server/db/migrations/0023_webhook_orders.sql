ALTER TABLE "webhook_events" ADD COLUMN "provider_order_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "outcome" text;--> statement-breakpoint
CREATE INDEX "webhook_events_order_idx" ON "webhook_events" USING btree ("provider_order_id");--> statement-breakpoint
CREATE INDEX "webhook_events_payment_idx" ON "webhook_events" USING btree ("provider_payment_id");