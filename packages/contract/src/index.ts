export * from "./accounts.ts";
export * from "./characters.ts";
export * from "./errors.ts";
export * from "./health.ts";
export * from "./labels.ts";
export * from "./models.ts";
export * from "./openai.ts";
export * from "./permissions.ts";
