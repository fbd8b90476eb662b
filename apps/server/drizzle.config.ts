import { defineConfig } from "drizzle-kit";

// Generates the one migration set (apps/server/drizzle) used by PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "./drizzle",
});
