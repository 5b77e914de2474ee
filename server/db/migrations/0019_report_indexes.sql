CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "refunds_processed_idx" ON "refunds" USING btree ("processed_at");