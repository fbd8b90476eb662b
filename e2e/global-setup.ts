import { ensureWebBuild } from "./harness.ts";

/**
 * vitest globalSetup for the e2e project: the server serves apps/web/dist, so build it once
 * before any browser test (skipped when the build is newer than its sources).
 */
export default function setup() {
  ensureWebBuild();
}
