CREATE TABLE "website_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"website_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"plan_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "website_periods_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "websites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"service_id" text NOT NULL,
	"domain" text NOT NULL,
	"plan_id" text NOT NULL,
	"started_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "course_title" TO "title";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "course_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "kind" text DEFAULT 'course' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "website_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "website_periods" ADD CONSTRAINT "website_periods_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_periods" ADD CONSTRAINT "website_periods_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "website_periods_website_idx" ON "website_periods" USING btree ("website_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "websites_live_domain_idx" ON "websites" USING btree ("domain") WHERE "websites"."started_at" is not null and "websites"."cancelled_at" is null;--> statement-breakpoint
CREATE INDEX "websites_user_idx" ON "websites" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "websites_expiry_idx" ON "websites" USING btree ("expires_at") WHERE "websites"."cancelled_at" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE set null ON UPDATE no action;