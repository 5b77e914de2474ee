CREATE TABLE "cli_login_requests" (
	"user_code" text PRIMARY KEY NOT NULL,
	"user_agent" text,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
