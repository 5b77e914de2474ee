CREATE TABLE "unpublished_courses" (
	"course_id" text PRIMARY KEY NOT NULL,
	"unpublished_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text NOT NULL
);
