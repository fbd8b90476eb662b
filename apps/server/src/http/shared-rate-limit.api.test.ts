import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { type RedisKind, redisKinds, redisSettings } from "../../test/redis-cluster.ts";
import { createHearth, type Hearth } from "../app.ts";
import { loadConfig } from "../config.ts";

/** Under REDIS_URL the API rate limit counts in Redis: a client spread over processes has one allowance. */
describe.each(Object.keys(redisKinds))("the API rate limit across processes (%s)", (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-rate-"));
  const prefix = `rate-${randomBytes(4).toString("hex")}`;
  let database: TestDatabase;
  let one: Hearth;
  let other: Hearth;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const config = loadConfig({
      HEARTH_DATA_DIR: dataDir,
      HEARTH_LOG_LEVEL: "silent",
      HEARTH_WEB_DIST: path.join(dataDir, "no-web"),
      ...redisSettings(await redisKinds[kind as RedisKind]()),
      HEARTH_RATE_LIMIT: "3",
    });
    // Two Hearths on one Redis prefix stand for two processes of one install.
    one = await createHearth(config, { database: database.database, redisPrefix: prefix });
    other = await createHearth(config, { database: database.database, redisPrefix: prefix });
  });
  afterAll(async () => {
    await one?.close();
    await other?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("requests to one process use up the allowance on the other", async () => {
    for (let i = 0; i < 3; i++)
      expect((await one.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    const refused = await other.app.inject({ method: "GET", url: "/api/health" });
    expect(refused.statusCode).toBe(429);
  });
});
