export * from "./accounts.ts";
export * from "./errors.ts";
export * from "./health.ts";
export * from "./permissions.ts";
