CREATE TABLE "character_monthly_messages" (
	"character_id" uuid NOT NULL,
	"month" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "character_monthly_messages_character_id_month_pk" PRIMARY KEY("character_id","month")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_user_id" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"character_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"issue" text DEFAULT '' NOT NULL,
	"resolution" text DEFAULT '' NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"reporter_user_id" text,
	"message_id" text,
	"conversation_id" text,
	"message_excerpt" text,
	"action_taken" text,
	"closed_by_user_id" text,
	"closed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "character_ratings" (
	"user_id" text NOT NULL,
	"character_id" uuid NOT NULL,
	"rating" integer NOT NULL,
	"score" real NOT NULL,
	"conversation_length" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "character_ratings_user_id_character_id_pk" PRIMARY KEY("user_id","character_id")
);
--> statement-breakpoint
CREATE TABLE "tag_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"character_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"tags_to_add" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags_to_remove" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blocked_creators" (
	"user_id" text NOT NULL,
	"creator_user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_creators_user_id_creator_user_id_pk" PRIMARY KEY("user_id","creator_user_id")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_entries" (
	"month" text NOT NULL,
	"category" text NOT NULL,
	"creator_user_id" text NOT NULL,
	"rank" integer NOT NULL,
	"number_of_characters" integer NOT NULL,
	"score" real NOT NULL,
	"movement" integer,
	"computed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leaderboard_entries_month_category_creator_user_id_pk" PRIMARY KEY("month","category","creator_user_id")
);
--> statement-breakpoint
DROP INDEX "characters_browse_popular_idx";--> statement-breakpoint
DROP INDEX "characters_browse_new_idx";--> statement-breakpoint
DROP INDEX "characters_browse_rating_idx";--> statement-breakpoint
ALTER TABLE "characters" ADD COLUMN "is_underage" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "rating_reason" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "rating_expected" text;--> statement-breakpoint
ALTER TABLE "character_monthly_messages" ADD CONSTRAINT "character_monthly_messages_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_closed_by_user_id_users_id_fk" FOREIGN KEY ("closed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "character_ratings" ADD CONSTRAINT "character_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "character_ratings" ADD CONSTRAINT "character_ratings_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_suggestions" ADD CONSTRAINT "tag_suggestions_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_suggestions" ADD CONSTRAINT "tag_suggestions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_creators" ADD CONSTRAINT "blocked_creators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_creators" ADD CONSTRAINT "blocked_creators_creator_user_id_users_id_fk" FOREIGN KEY ("creator_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD CONSTRAINT "leaderboard_entries_creator_user_id_users_id_fk" FOREIGN KEY ("creator_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "character_monthly_messages_month_idx" ON "character_monthly_messages" USING btree ("month");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "reviews_status_idx" ON "reviews" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reviews_character_idx" ON "reviews" USING btree ("character_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_one_open_report_idx" ON "reviews" USING btree ("reporter_user_id","character_id","kind") WHERE status = 'open' and reporter_user_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_one_open_bot_review_idx" ON "reviews" USING btree ("character_id") WHERE status = 'open' and kind in ('new_bot', 'edited_bot');--> statement-breakpoint
CREATE INDEX "character_ratings_character_idx" ON "character_ratings" USING btree ("character_id");--> statement-breakpoint
CREATE INDEX "character_ratings_updated_idx" ON "character_ratings" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_suggestions_one_pending_idx" ON "tag_suggestions" USING btree ("character_id","user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "tag_suggestions_character_idx" ON "tag_suggestions" USING btree ("character_id","status");--> statement-breakpoint
CREATE INDEX "blocked_creators_user_idx" ON "blocked_creators" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leaderboard_entries_rank_idx" ON "leaderboard_entries" USING btree ("month","category","rank");--> statement-breakpoint
CREATE INDEX "characters_browse_popular_idx" ON "characters" USING btree ("num_messages" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required' and not is_underage;--> statement-breakpoint
CREATE INDEX "characters_browse_new_idx" ON "characters" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required' and not is_underage;--> statement-breakpoint
CREATE INDEX "characters_browse_rating_idx" ON "characters" USING btree (coalesce("rating_score", -1) desc nulls last,"id" DESC NULLS LAST) WHERE visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required' and not is_underage;--> statement-breakpoint
-- Bots already waiting for review before the review table existed get their open review now, so
-- none stays pending with nobody able to see it.
INSERT INTO "reviews" ("character_id", "kind", "issue")
SELECT "id", CASE WHEN "moderation_status" = 'rereview_required' THEN 'edited_bot' ELSE 'new_bot' END,
  CASE WHEN "moderation_status" = 'rereview_required' THEN 'Edited public bot' ELSE 'New public bot' END
FROM "characters"
WHERE "moderation_status" IN ('pending', 'rereview_required') AND "deleted_at" IS NULL;
