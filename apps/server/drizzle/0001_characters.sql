CREATE TABLE "characters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_user_id" text NOT NULL,
	"name" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"greeting" text DEFAULT '' NOT NULL,
	"alternate_greetings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"persona" text DEFAULT '' NOT NULL,
	"scenario" text DEFAULT '' NOT NULL,
	"dialogue" text DEFAULT '' NOT NULL,
	"system_prompt" text DEFAULT '' NOT NULL,
	"post_history_instructions" text DEFAULT '' NOT NULL,
	"creator_notes" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"avatar_key" text,
	"avatar_is_nsfw" boolean DEFAULT false NOT NULL,
	"definition_visible" boolean DEFAULT false NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"num_messages" bigint DEFAULT 0 NOT NULL,
	"num_favorites" integer DEFAULT 0 NOT NULL,
	"rating_score" real,
	"token_count" integer DEFAULT 0 NOT NULL,
	"lora_status" text DEFAULT 'not_trained' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"is_nsfw" boolean DEFAULT false NOT NULL,
	"moderation_status" text DEFAULT 'approved' NOT NULL,
	"reason_for_moderation" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"action_taken_description" text,
	"reports_type" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"character_book" jsonb,
	"extensions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"user_id" text NOT NULL,
	"character_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_user_id_character_id_pk" PRIMARY KEY("user_id","character_id")
);
--> statement-breakpoint
ALTER TABLE "characters" ADD CONSTRAINT "characters_creator_user_id_users_id_fk" FOREIGN KEY ("creator_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "characters_browse_popular_idx" ON "characters" USING btree ("num_messages" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required';--> statement-breakpoint
CREATE INDEX "characters_browse_new_idx" ON "characters" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required';--> statement-breakpoint
CREATE INDEX "characters_browse_rating_idx" ON "characters" USING btree (coalesce("rating_score", -1) desc nulls last,"id" DESC NULLS LAST) WHERE visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required';--> statement-breakpoint
CREATE INDEX "characters_creator_idx" ON "characters" USING btree ("creator_user_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "characters_tags_idx" ON "characters" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "favorites_user_idx" ON "favorites" USING btree ("user_id","created_at" DESC NULLS LAST,"character_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "favorites_character_idx" ON "favorites" USING btree ("character_id");