CREATE TABLE "website_reminders" (
	"website_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "website_reminders_website_id_kind_expires_at_pk" PRIMARY KEY("website_id","kind","expires_at")
);
--> statement-breakpoint
ALTER TABLE "website_reminders" ADD CONSTRAINT "website_reminders_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;