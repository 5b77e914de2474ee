-- What is the same for every visitor (ratings, the newest reviews, what is on sale) is kept in each
-- process's memory (server/db/shared-reads.ts) until the tables it was read from change: every
-- statement that changes one of them notifies the channel academy_changes with the table's name,
-- delivered to every listening process when the transaction commits.
CREATE FUNCTION academy_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('academy_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER feedback_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "feedback" FOR EACH STATEMENT EXECUTE FUNCTION academy_notify_change();
--> statement-breakpoint
CREATE TRIGGER enrolments_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "enrolments" FOR EACH STATEMENT EXECUTE FUNCTION academy_notify_change();
--> statement-breakpoint
CREATE TRIGGER unpublished_courses_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "unpublished_courses" FOR EACH STATEMENT EXECUTE FUNCTION academy_notify_change();
--> statement-breakpoint
CREATE TRIGGER users_changes AFTER INSERT OR UPDATE OF "name" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION academy_notify_change();
--> statement-breakpoint
CREATE TRIGGER user_changes AFTER INSERT OR UPDATE OF "name" OR DELETE OR TRUNCATE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION academy_notify_change();
