import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHearth, type Hearth } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { updateUser } from "../src/features/accounts/queries.ts";
import { createTestDatabase, type Driver, TEST_REDIS_URL } from "./databases.ts";

export interface TestHearth extends Hearth {
  /** Signs up a fresh email account and answers its cookie header and id. */
  signUp(opts?: { name?: string; username?: string }): Promise<{ cookie: string; id: string; email: string }>;
  signInAsGuest(): Promise<{ cookie: string; id: string }>;
  /** Starts listening on a free loopback port; answers the base URL. */
  listen(): Promise<string>;
  stop(): Promise<void>;
}

export interface TestHearthOptions {
  driver?: Driver;
  /** Use the machine's Redis for the queue and the bus. */
  redis?: boolean;
  env?: Record<string, string>;
}

/** A whole Hearth (real database, real auth) driven through fastify's inject. */
export async function startTestHearth(opts: TestHearthOptions = {}): Promise<TestHearth> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-test-"));
  const testDb = await createTestDatabase(opts.driver ?? "pglite");
  const config = loadConfig({
    HEARTH_DATA_DIR: dataDir,
    HEARTH_LOG_LEVEL: "silent",
    HEARTH_WEB_DIST: path.join(dataDir, "no-web"),
    // Tests sign up plain members; the ones about the first administrator turn this back on.
    HEARTH_FIRST_USER_ADMIN: "false",
    ...(opts.redis ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...opts.env,
  });
  const hearth = await createHearth(config, {
    database: testDb.database,
    redisPrefix: `hearth-test-${randomBytes(4).toString("hex")}`,
  });
  const origin = "http://localhost:3000";

  async function authPost(url: string, body: unknown) {
    const res = await hearth.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json", origin, host: "localhost:3000" },
      payload: JSON.stringify(body),
    });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    const setCookie = res.headers["set-cookie"];
    const cookies = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ""])
      .map((c) => c.split(";")[0])
      .join("; ");
    return { cookie: cookies, user: (res.json() as { user: { id: string } }).user };
  }

  return {
    ...hearth,
    async signUp(o = {}) {
      const email = `u${randomBytes(5).toString("hex")}@example.com`;
      const { cookie, user } = await authPost("/api/auth/sign-up/email", {
        email,
        password: "correct horse battery",
        name: o.name ?? "Tester",
        ...(o.username ? { username: o.username } : {}),
      });
      return { cookie, id: user.id, email };
    },
    async signInAsGuest() {
      const { cookie, user } = await authPost("/api/auth/sign-in/anonymous", {});
      return { cookie, id: user.id };
    },
    async listen() {
      return hearth.app.listen({ port: 0, host: "127.0.0.1" });
    },
    async stop() {
      await hearth.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { updateUser };
