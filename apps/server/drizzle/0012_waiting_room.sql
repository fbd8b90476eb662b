CREATE TABLE "waiting_room" (
	"user_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"priority" integer NOT NULL,
	"entered_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"granted_at" timestamp (3) with time zone,
	"last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waiting_room_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"ended_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"seconds" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "waiting_room" ADD CONSTRAINT "waiting_room_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waiting_room_line_idx" ON "waiting_room" USING btree ("status","priority","entered_at");--> statement-breakpoint
CREATE INDEX "waiting_room_sessions_ended_idx" ON "waiting_room_sessions" USING btree ("ended_at");