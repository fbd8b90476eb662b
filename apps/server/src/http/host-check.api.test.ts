import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApiError, FavoriteState } from "@hearth/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../test/chat.ts";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";

/**
 * DNS rebinding (decision 025): a page on a name its author controls, resolved to this server,
 * sends a Host and a matching Origin of its own. Hearth answers such a request 421
 * `unknownHost` before any handler runs, on every kind of route; its own names get through.
 */

const REBIND = { host: "rebind.example", origin: "http://rebind.example" };
const web = mkdtempSync(path.join(tmpdir(), "hearth-web-"));
mkdirSync(path.join(web, "assets"));
writeFileSync(path.join(web, "index.html"), "<!doctype html><title>Hearth</title><div id=root></div>");
writeFileSync(path.join(web, "assets", "app-abc123.js"), "console.log('hi')");
afterAll(() => rmSync(web, { recursive: true, force: true }));

const signUpBody = (name: string) =>
  JSON.stringify({ email: `${name}@example.com`, password: "correct horse battery", name });

describe.each(drivers)("the host check (%s)", (driver) => {
  let h: TestHearth;
  const count = async (table: "users" | "accounts" | "favorites") =>
    (await h.database.db.execute<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))).rows[0]
      ?.n;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: {
        HEARTH_WEB_DIST: web,
        HEARTH_FIRST_USER_ADMIN: "true",
        HEARTH_ALLOWED_HOSTS: "mybox.lan,.home.example",
        HEARTH_API_KEY: "api-key-0123456789abcdef",
        HEARTH_RATE_LIMIT: "0",
      },
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const expectUnknownHost = (res: { statusCode: number; json: <T>() => T }, what: string) => {
    expect(res.statusCode, what).toBe(421);
    const body = res.json<ApiError>();
    expect(body.code, what).toBe("unknownHost");
    expect(body.message, what).toMatch(/does not answer to the name "rebind\.example".*HEARTH_ALLOWED_HOSTS/);
  };

  it("refuses a rebound fresh install's sign-up, guest sign-in and first administrator: nothing is written", async () => {
    const usersBefore = await count("users");
    const signUp = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { ...REBIND, "content-type": "application/json" },
      payload: signUpBody("rebinder"),
    });
    expectUnknownHost(signUp, "sign-up");
    const guest = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/anonymous",
      headers: { ...REBIND, "content-type": "application/json" },
      payload: "{}",
    });
    expectUnknownHost(guest, "guest sign-in");
    expect(await count("users")).toBe(usersBefore);
    expect(await count("accounts")).toBe(0);
    const config = await h.app.inject({ method: "GET", url: "/api/config" });
    expect(config.json<{ auth: { first_user_admin: boolean } }>().auth.first_user_admin).toBe(true);
  });

  it("refuses a rebound page's reads and writes on every kind of route, before any handler", async () => {
    const member = await h.signUp({ name: "Member" });
    const character = await insertTestCharacter(h.database.db, member.id);
    const favorite = await h.app.inject({
      method: "POST",
      url: `/api/characters/${character.id}/favorite`,
      headers: { ...REBIND, cookie: member.cookie },
    });
    expectUnknownHost(favorite, "favorite");
    expect(await count("favorites")).toBe(0);
    // A body that does not parse: had it been read, the answer would be 400.
    const badBody = await h.app.inject({
      method: "PATCH",
      url: "/api/users/me",
      headers: { ...REBIND, cookie: member.cookie, "content-type": "application/json" },
      payload: "{ not json",
    });
    expectUnknownHost(badBody, "PATCH with a broken body");
    const reads = ["/api/me", "/api/config", "/api/health", "/", "/index.html", "/assets/app-abc123.js"];
    const headers = { ...REBIND, cookie: member.cookie, authorization: "Bearer api-key-0123456789abcdef" };
    for (const url of [...reads, "/chat/some/page", "/metrics", "/api/no-such-route"]) {
      const res = await h.app.inject({ method: "GET", url, headers });
      expectUnknownHost(res, url);
      // The refusal still carries the security headers.
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
    }
    // The OpenAI-compatible API says the same in the OpenAI error shape its clients read.
    const v1 = await h.app.inject({ method: "GET", url: "/v1/models", headers });
    expect(v1.statusCode).toBe(421);
    expect(v1.json<{ error: { message: string } }>().error.message).toMatch(/HEARTH_ALLOWED_HOSTS/);
    // Behind no trusted proxy a forwarded host changes nothing, either way.
    const forwarded = await h.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { ...REBIND, "x-forwarded-host": "localhost", cookie: member.cookie },
    });
    expectUnknownHost(forwarded, "X-Forwarded-Host without a trusted proxy");
  });

  it("answers loopback names, IP literals and the allowed hosts, pages and API alike", async () => {
    const hosts = [
      "localhost",
      "localhost:3000",
      "app.localhost:5173",
      "127.0.0.1:3000",
      "[::1]:3000",
      "192.168.1.20:3000",
      "[fd00::1]",
      "mybox.lan:3000",
      "tv.home.example",
    ];
    for (const host of hosts) {
      const page = await h.app.inject({ method: "GET", url: "/", headers: { host } });
      expect(page.statusCode, host).toBe(200);
      expect(page.body, host).toContain("<div id=root>");
      const health = await h.app.inject({ method: "GET", url: "/api/health", headers: { host } });
      expect(health.statusCode, host).toBe(200);
    }
    // A LAN member signs up and favorites through an allowed name, with its own Origin.
    const lan = { host: "mybox.lan:3000", origin: "http://mybox.lan:3000" };
    const signUp = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      remoteAddress: "192.168.1.30",
      headers: { ...lan, "content-type": "application/json" },
      payload: signUpBody("lan-member"),
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const cookie = String(signUp.headers["set-cookie"]).split(";")[0] ?? "";
    const creator = await h.signUp({ name: "Creator" });
    const character = await insertTestCharacter(h.database.db, creator.id);
    const favorite = await h.app.inject({
      method: "POST",
      url: `/api/characters/${character.id}/favorite`,
      remoteAddress: "192.168.1.30",
      headers: { ...lan, cookie },
    });
    expect(favorite.statusCode, favorite.body).toBe(200);
    expect(favorite.json<FavoriteState>().is_favorite).toBe(true);
  });
});

// Each case starts its own Hearth on PGlite.
describe("the host check with PUBLIC_URL or behind a trusted proxy", { timeout: 180_000 }, () => {
  const statusOf = async (env: Record<string, string>, ...tries: Record<string, string>[]) => {
    const h = await startTestHearth({ env: { HEARTH_WEB_DIST: web, ...env } });
    try {
      const answers: (number | string)[] = [];
      for (const headers of tries) {
        const res = await h.app.inject({ method: "GET", url: "/api/config", headers });
        answers.push(res.statusCode === 421 ? res.json<ApiError>().code : res.statusCode);
      }
      return answers;
    } finally {
      await h.stop();
    }
  };

  it("with PUBLIC_URL, answers its host, the allowed hosts, loopback and IP literals, and refuses the rebound name", async () => {
    expect(
      await statusOf(
        { PUBLIC_URL: "https://chat.example.com", HEARTH_ALLOWED_HOSTS: "mybox.lan" },
        { host: "chat.example.com" },
        { host: "mybox.lan" },
        { host: "localhost:3000" },
        { host: "10.0.0.7:3000" },
        REBIND,
        { host: "www.chat.example.com" },
      ),
    ).toEqual([200, 200, 200, 200, "unknownHost", "unknownHost"]);
  });

  it("behind a trusted proxy, checks the forwarded host", async () => {
    const proxy = { host: "127.0.0.1:3000" };
    expect(
      await statusOf(
        { HEARTH_TRUST_PROXY: "true", PUBLIC_URL: "https://chat.example.com" },
        { ...proxy, "x-forwarded-host": "chat.example.com" },
        { ...proxy, "x-forwarded-host": "rebind.example" },
        { host: "rebind.example", "x-forwarded-host": "chat.example.com" },
        proxy,
      ),
    ).toEqual([200, "unknownHost", 200, 200]);
  });

  it("HEARTH_ALLOWED_HOSTS=* answers every name", async () => {
    expect(await statusOf({ HEARTH_ALLOWED_HOSTS: "*" }, REBIND)).toEqual([200]);
  });
});
