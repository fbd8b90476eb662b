ALTER TABLE "generations" ADD COLUMN "turn_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "capacity_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "max_running" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "worker_id" text;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "generations_queued_turn_idx" ON "generations" USING btree ("turn_at") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "generations_running_user_idx" ON "generations" USING btree ("user_id") WHERE status = 'running';