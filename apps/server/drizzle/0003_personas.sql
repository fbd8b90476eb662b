CREATE TABLE "personas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"highlights" text DEFAULT '' NOT NULL,
	"avatar_key" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personas_name_length" CHECK (char_length("personas"."name") between 1 and 30),
	CONSTRAINT "personas_highlights_length" CHECK (char_length("personas"."highlights") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personas_user_name_key" ON "personas" USING btree ("user_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "personas_user_default_key" ON "personas" USING btree ("user_id") WHERE is_default;