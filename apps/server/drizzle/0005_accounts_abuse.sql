CREATE TABLE "auth_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"lockouts" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
-- Existing usernames are brought to their canonical form before the check below, so this cannot
-- fail on old data. 1: a username that no rule allows (spaces, punctuation, other scripts such as
-- a Cyrillic look-alike, too short or long) is cleared: that account picks a new one.
UPDATE "users" SET "username" = NULL WHERE "username" IS NOT NULL AND "username" !~ '^[A-Za-z0-9_-]{3,20}$';
--> statement-breakpoint
-- 2: of names equal but for case (`alice`, `ALICE`), one keeps it: the one already lowercase,
-- else the oldest account; the others are cleared.
UPDATE "users" AS u SET "username" = NULL
FROM (
	SELECT "id", row_number() OVER (
		PARTITION BY lower("username")
		ORDER BY ("username" <> lower("username")), "created_at", "id"
	) AS n
	FROM "users" WHERE "username" IS NOT NULL
) AS d
WHERE u."id" = d."id" AND d.n > 1;
--> statement-breakpoint
-- 3: the rest are lowercased (no longer colliding, after step 2).
UPDATE "users" SET "username" = lower("username") WHERE "username" <> lower("username");
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_username_canonical" CHECK ("users"."username" ~ '^[a-z0-9_-]{3,20}$');
