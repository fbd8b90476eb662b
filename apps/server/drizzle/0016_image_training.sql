CREATE TABLE "image_training_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"character_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"job_id" text,
	"trigger_word" text NOT NULL,
	"lora_key" text,
	"lora_weight" real DEFAULT 0.8 NOT NULL,
	"error" text,
	"next_poll_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "image_training_requests" ADD CONSTRAINT "image_training_requests_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_training_requests" ADD CONSTRAINT "image_training_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_training_requests_user_idx" ON "image_training_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "image_training_requests_character_idx" ON "image_training_requests" USING btree ("character_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "image_training_requests_open_idx" ON "image_training_requests" USING btree ("next_poll_at") WHERE status in ('queued', 'submitted');