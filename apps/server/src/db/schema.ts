// The one Drizzle schema: every feature's tables, gathered for the client and drizzle-kit.
export * from "../features/account-transfer/schema.ts";
export * from "../features/accounts/schema.ts";
export * from "../features/ads/schema.ts";
export * from "../features/billing/schema.ts";
export * from "../features/blocking/schema.ts";
export * from "../features/characters/schema.ts";
export * from "../features/chats/schema.ts";
export * from "../features/idempotency/schema.ts";
export * from "../features/image-training/schema.ts";
export * from "../features/leaderboard/schema.ts";
export * from "../features/lorebooks/schema.ts";
export * from "../features/memories/schema.ts";
export * from "../features/moderation/schema.ts";
export * from "../features/personas/schema.ts";
export * from "../features/ratings/schema.ts";
export * from "../features/waiting-room/schema.ts";
