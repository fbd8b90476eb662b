ALTER TABLE "users" ADD COLUMN "system_account" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_system_account_key" ON "users" USING btree ("system_account");--> statement-breakpoint
-- The placeholder made before this column existed (username deleted_user, this e-mail, no way
-- to sign in) becomes the system account; a member's account, which has a sign-in, never does.
UPDATE "users" SET "system_account" = 'deleted-creator'
WHERE "email" = 'deleted-user@hearth.invalid'
  AND NOT EXISTS (SELECT 1 FROM "accounts" WHERE "accounts"."user_id" = "users"."id");
