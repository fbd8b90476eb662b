// The one Drizzle schema: every feature's tables, gathered for the client and drizzle-kit.
export * from "../features/accounts/schema.ts";
