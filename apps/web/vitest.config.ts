import { defineConfig } from "vitest/config";

// Unit tests of the web client that need no browser (route guards, navigation filtering).
// The root vitest.config.ts can list this file as a project.
export default defineConfig({
  test: {
    name: "web",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
