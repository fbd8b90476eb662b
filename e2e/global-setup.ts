import { migratedEmbeddedDir } from "../apps/server/test/databases.ts";
import { ensureWebBuild } from "./harness.ts";

/**
 * vitest globalSetup for the e2e project: the server serves apps/web/dist, so build it once
 * before any browser test (skipped when the build is newer than its sources); and make the
 * migrated empty database each test server's data directory starts from (harness.ts).
 */
export default async function setup() {
  ensureWebBuild();
  await migratedEmbeddedDir();
}
