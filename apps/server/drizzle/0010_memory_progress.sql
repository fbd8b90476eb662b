CREATE TABLE "memory_progress" (
	"conversation_id" text PRIMARY KEY NOT NULL,
	"through_seq" bigint DEFAULT 0 NOT NULL,
	"rewrite" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memory_progress" ADD CONSTRAINT "memory_progress_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;