import { defineConfig } from "vitest/config";

// The e2e project, runnable on its own (`npx vitest run --config e2e/vitest.config.ts`). Same
// settings as the "e2e" project in the root vitest.config.ts, plus the web build before any test.
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["**/*.test.ts"],
    environment: "node",
    globalSetup: ["./global-setup.ts"],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 30_000 } },
    pool: "forks",
    fileParallelism: false,
  },
});
