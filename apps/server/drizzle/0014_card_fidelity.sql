ALTER TABLE "characters" ADD COLUMN "personality" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "characters" ADD COLUMN "tag_labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "characters" ADD COLUMN "art_key" text;--> statement-breakpoint
ALTER TABLE "characters" ADD COLUMN "card_source" text;