CREATE TABLE "app_roots" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
