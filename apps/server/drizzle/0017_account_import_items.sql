CREATE TABLE "account_import_items" (
	"user_id" text NOT NULL,
	"archive_sha256" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_import_items_user_id_archive_sha256_kind_source_id_pk" PRIMARY KEY("user_id","archive_sha256","kind","source_id")
);
--> statement-breakpoint
ALTER TABLE "account_import_items" ADD CONSTRAINT "account_import_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;