import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InjectOptions } from "fastify";
import { createHearth, type Hearth } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { updateUser } from "../src/features/accounts/queries.ts";
import { createTestDatabase, type Driver } from "./databases.ts";
import { redisKinds, redisSettings } from "./redis-cluster.ts";

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
  /** Use the machine's Redis for the queue and the bus; `"cluster"`: a Redis Cluster (redis-cluster.ts). */
  redis?: boolean | "cluster";
  env?: Record<string, string>;
  /**
   * A lasting install instead of a throwaway one: this data directory (the embedded database in
   * its `db`, or `databaseUrl`), opened as `hearth start` would and left in place by stop().
   */
  install?: { dataDir: string; databaseUrl?: string };
}

/** A whole Hearth (real database, real auth) driven through fastify's inject. */
export async function startTestHearth(opts: TestHearthOptions = {}): Promise<TestHearth> {
  const install = opts.install ?? null;
  const dataDir = install?.dataDir ?? mkdtempSync(path.join(tmpdir(), "hearth-test-"));
  const testDb = install ? null : await createTestDatabase(opts.driver ?? "pglite");
  const config = loadConfig({
    HEARTH_DATA_DIR: dataDir,
    ...(install?.databaseUrl ? { DATABASE_URL: install.databaseUrl } : {}),
    HEARTH_LOG_LEVEL: "silent",
    HEARTH_WEB_DIST: path.join(dataDir, "no-web"),
    // Tests sign up plain members; the ones about the first administrator turn this back on.
    HEARTH_FIRST_USER_ADMIN: "false",
    // Every test's accounts come from one address; the allowance's own test sets a number.
    HEARTH_SIGNUPS_PER_DAY: "0",
    ...(opts.redis
      ? redisSettings(await redisKinds[opts.redis === "cluster" ? "a Redis Cluster" : "a Redis server"]())
      : {}),
    ...opts.env,
  });
  const hearth = await createHearth(config, {
    ...(testDb ? { database: testDb.database } : { backupControl: false }),
    redisPrefix: `hearth-test-${randomBytes(4).toString("hex")}`,
  });
  // Hearth's own pages: at PUBLIC_URL when a test sets one, else the usual local address.
  const origin = config.publicUrl ? new URL(config.publicUrl).origin : "http://localhost:3000";
  actLikeABrowser(hearth, origin);

  async function authPost(url: string, body: unknown) {
    const res = await hearth.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json", origin, host: new URL(origin).host },
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
      const base = await hearth.app.listen({ port: 0, host: "127.0.0.1" });
      browserLikeBases.add(new URL(base).origin);
      return base;
    },
    async stop() {
      await hearth.close();
      if (!testDb) return;
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Test clients act like a browser. Hearth refuses state-changing requests whose Origin is missing
 * or foreign (http/origin-check.ts), and a browser sends its page's Origin on every such request;
 * inject and Node's fetch send none. So the TestHearth's `app.inject` adds the Origin (and the
 * Host it must match) of Hearth's own pages to a POST, PUT, PATCH or DELETE that names no origin,
 * rather than every test repeating it. A test of the check itself passes its own `origin`, or
 * `origin: undefined` for a request with none (like curl's).
 */
function actLikeABrowser(hearth: Hearth, ownOrigin: string): void {
  const inject = hearth.app.inject.bind(hearth.app);
  const wrapped = (opts: InjectOptions | string) => {
    if (typeof opts === "string" || !STATE_CHANGING.has(String(opts.method ?? "GET").toUpperCase()))
      return inject(opts);
    const headers = { ...(opts.headers ?? {}) };
    if (!("origin" in headers)) {
      headers.origin = ownOrigin;
      headers.host ??= new URL(ownOrigin).host;
    } else if (headers.origin === undefined) delete headers.origin;
    return inject({ ...opts, headers });
  };
  hearth.app.inject = wrapped as typeof hearth.app.inject;
  makeFetchActLikeABrowser();
}

/** Origins of TestHearths listening on a real port (`listen()`). */
const browserLikeBases = new Set<string>();
let fetchWrapped = false;

/**
 * The same for tests over real HTTP: a POST, PUT, PATCH or DELETE that global `fetch` sends to a
 * listening TestHearth gets that server's origin as its Origin unless it names one (or sets
 * `origin: ""`, sent as no header at all). Requests to anything else pass through untouched.
 */
function makeFetchActLikeABrowser(): void {
  if (fetchWrapped) return;
  fetchWrapped = true;
  const plainFetch = globalThis.fetch;
  globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    if (!browserLikeBases.has(url.origin) || !STATE_CHANGING.has(method)) return plainFetch(input, init);
    const headers = new Headers(request?.headers);
    new Headers(init?.headers).forEach((value, name) => {
      headers.set(name, value);
    });
    if (!headers.has("origin")) headers.set("origin", url.origin);
    else if (headers.get("origin") === "") headers.delete("origin");
    return plainFetch(input, { ...init, headers });
  };
}

export { updateUser };
