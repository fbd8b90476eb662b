import { defineConfig } from "vitest/config";

// Two projects: fast server/unit tests (PGlite, PostgreSQL, Redis, llama.cpp) and browser
// end-to-end tests that start a real Hearth process and drive Debian's Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "server",
          include: ["packages/**/*.test.ts", "apps/server/**/*.test.ts", "models/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
          // The files share one process and its imported modules: isolated, each file imported
          // the server afresh (2-3 s a file on two busy cores). A test must therefore put back
          // whatever global it changes (a spy, a setting), as the ones that change any do.
          isolate: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          environment: "node",
          // Generous: a passing test takes what it takes, and a whole file of browser flows on
          // two cores shared with the server tier once ran one 11 s test past 120 s.
          testTimeout: 240_000,
          hookTimeout: 180_000,
          // expect.poll's own default is 1 s: a timing threshold that a loaded CI machine missed
          // (a lorebook editor's list, a reply's first token). A poll ends as soon as it passes.
          expect: { poll: { timeout: 30_000 } },
          pool: "forks",
          fileParallelism: false,
          // The server under test serves apps/web/dist: build it once before any browser test.
          globalSetup: ["e2e/global-setup.ts"],
        },
      },
      "apps/web/vitest.config.ts",
    ],
  },
});
