import { randomUUID } from "node:crypto";
import {
  type ApiError,
  accountTransferEndpoints,
  allEndpoints,
  type Character,
  type ConversationCreated,
  type EndpointDef,
  type Persona,
  pathOf,
} from "@hearth/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../test/chat.ts";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../test/harness.ts";

/**
 * A restricted account (restriction `complete` or `temporary`) is refused with 403 `restricted`,
 * so the client can show its one restriction page: never 404 `invalidAccess`, which would read
 * as "this bot is private or deleted". Walks every endpoint of the contract as a restricted
 * member, with the ids of things that member owns or could see before, and with unknown ids:
 * reads are refused as much as changes, except what the restriction page and the account's data
 * rights need.
 */

/** All a restricted account may still reach: its restriction page's reads, its data, its deletion. */
const STILL_REACHABLE = new Set([
  "GET /api/me",
  "GET /api/config",
  "GET /api/app-settings",
  "GET /api/site",
  "GET /api/pages/{slug}",
  "GET /api/health",
  // The operator's scrape, opened by its own token, not by an account.
  "GET /metrics",
  "GET /api/account/export",
  "DELETE /api/users",
  // Answers 403 restricted too, unless the session is an administrator's view (then it ends it).
  "POST /api/admin/impersonation/stop",
  // Stored pictures, public to anyone by their random key.
  "GET /api/files/*",
]);

/** Valid input for the endpoints that need some, so what answers is the policy, not the parser. */
const BODIES: Record<string, (ids: Ids) => unknown> = {
  "POST /api/characters": () => ({ name: "Restricted Bot" }),
  "PATCH /api/characters/{id}": () => ({ name: "Renamed" }),
  "PUT /api/characters/{id}": () => ({ name: "Renamed" }),
  "PUT /api/admin/characters/{id}/moderation": () => ({ moderation_status: "approved" }),
  "PATCH /api/admin/users/{id}": () => ({ role: "premium" }),
  "POST /api/conversations": (ids) => ({ character_id: ids.publicBot }),
  "PATCH /api/conversations/{id}": () => ({ label: "Renamed" }),
  "PUT /api/messages/{id}/alternative": () => ({ alternative_index: 0 }),
  "PATCH /api/messages/{id}": () => ({ content: "Edited" }),
  "PUT /api/messages/{id}": () => ({ content: "Edited" }),
  "POST /api/conversations/{id}/clone": () => ({ label: "Copy", mode: "full" }),
  "POST /api/generate": (ids) => ({ conversation_id: ids.conversation, action: "send", content: "Hi" }),
  "POST /api/personas": () => ({ name: "Another" }),
  "PATCH /api/personas/{id}": () => ({ name: "Renamed" }),
  "POST /api/admin/models/downloads": () => ({ id: "tiny" }),
  "PUT /api/admin/models/active": () => ({ id: "tiny" }),
  "PUT /api/admin/models/local-server": () => ({ base_url: "http://127.0.0.1:9", model: "m" }),
  "PATCH /api/users/me": () => ({ name: "Renamed" }),
  "POST /api/admin/ads": () => ({ name: "Ad", text: "Lanterns", link_url: "https://example.com/" }),
  "PUT /api/admin/ads/{id}": () => ({ name: "Ad", text: "Lanterns", link_url: "https://example.com/" }),
  "PUT /api/conversations/{id}/voice": () => ({ voice_id: null }),
  "POST /api/messages/{id}/voice-rating": () => ({ rating: 3 }),
  "POST /api/characters/train": (ids) => ({ character_id: ids.publicBot }),
};
const QUERIES: Record<string, (ids: Ids) => string> = {
  "DELETE /api/conversations/{id}/messages": (ids) => `?from=${ids.message}`,
};

interface Ids {
  me: string;
  username: string;
  publicBot: string;
  ownBot: string;
  conversation: string;
  message: string;
  persona: string;
}

/** The ids to try in each path parameter: the restricted member's own things, then unknown ones. */
function paramSets(def: EndpointDef, ids: Ids): Record<string, string>[] {
  const p = def.path;
  if (p.includes("{key+}")) return [{ key: "avatars/none.webp" }];
  if (p.includes("{username}")) return [{ username: ids.username }];
  if (p.includes("{slug}")) return [{ slug: "privacy" }];
  if (p.includes("{pledge_service}")) return [{ pledge_service: "patreon", transientId: "a.b" }];
  if (p.includes("{country}")) return [{ country: "US" }];
  if (p.includes("{orderId}")) return [{ orderId: randomUUID() }];
  if (p.includes("{code}")) return [{ code: "NOPE" }];
  if (!p.includes("{id}")) return [{}];
  const candidates = p.startsWith("/api/admin/users/")
    ? [ids.me]
    : p.startsWith("/api/characters/") || p.startsWith("/api/admin/characters/")
      ? [ids.ownBot, ids.publicBot]
      : p.startsWith("/api/conversations/")
        ? [ids.conversation]
        : p.startsWith("/api/messages/")
          ? [ids.message]
          : p.startsWith("/api/personas/")
            ? [ids.persona]
            : [];
  // A translation is named by its bot and a language code.
  const extra: Record<string, string> = p.includes("{language}") ? { language: "fr" } : {};
  return [...candidates, randomUUID()].map((id) => ({ id, ...extra }));
}

describe.each(drivers)("a restricted account is told so (%s)", (driver) => {
  let h: TestHearth;
  let png: Buffer;
  const people: { restriction: "complete" | "temporary"; cookie: string; ids: Ids }[] = [];

  const call = (cookie: string, def: EndpointDef, url: string, body?: unknown) => {
    if (def.body === "multipart") {
      const boundary = "restricted-walk";
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return h.app.inject({
        method: def.method,
        url,
        headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    }
    return h.app.inject({
      method: def.method,
      url,
      headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  };

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_RATE_LIMIT: "0", HEARTH_LOCAL_SERVERS: "off" } });
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f80" } })
      .png()
      .toBuffer();
    const username = `c${randomUUID().slice(0, 8)}`;
    const creator = await h.signUp({ name: "Creator", username });
    const publicBot = (await insertTestCharacter(h.database.db, creator.id)).id;
    for (const restriction of ["complete", "temporary"] as const) {
      // Everything made while the account was in good standing, then the restriction.
      const me = await h.signUp({ name: "Soon Restricted" });
      const json = (method: "POST", url: string, body: unknown) =>
        h.app.inject({
          method,
          url,
          headers: { cookie: me.cookie, "content-type": "application/json" },
          payload: JSON.stringify(body),
        });
      const ownBot = (await json("POST", "/api/characters", { name: "Mine" })).json<Character>().id;
      const chat = (
        await json("POST", "/api/conversations", { character_id: publicBot })
      ).json<ConversationCreated>();
      const persona = (await json("POST", "/api/personas", { name: "Me" })).json<Persona>().id;
      await h.app.inject({
        method: "POST",
        url: `/api/characters/${publicBot}/favorite`,
        headers: { cookie: me.cookie },
      });
      await updateUser(h.database.db, me.id, { restriction });
      people.push({
        restriction,
        cookie: me.cookie,
        ids: {
          me: me.id,
          username,
          publicBot,
          ownBot,
          conversation: chat.conversation.id,
          message: chat.messages[0]?.id as string,
          persona,
        },
      });
    }
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("walks every endpoint: 403 restricted for everything but the restriction page's own needs", async () => {
    const wrong: string[] = [];
    let changes = 0;
    let reads = 0;
    for (const person of people) {
      // Payment providers' webhooks come from the provider, never from a member's session.
      // Nor does a guest's resume, which is how someone without a session gets one back.
      const walked = allEndpoints.filter(
        (e) =>
          e.access !== "api-key" &&
          !e.path.startsWith("/api/billing/webhooks/") &&
          e.path !== "/api/guest/resume" &&
          !STILL_REACHABLE.has(`${e.method} ${e.path}`),
      );
      for (const def of walked) {
        const key = `${def.method} ${def.path}`;
        for (const params of paramSets(def, person.ids)) {
          const url = pathOf(def.path, params) + (QUERIES[key]?.(person.ids) ?? "");
          const body = def.body && def.body !== "multipart" ? (BODIES[key]?.(person.ids) ?? {}) : undefined;
          const res = await call(person.cookie, def, url, body);
          const code = res.statusCode >= 400 ? res.json<ApiError>().code : null;
          const where = `${person.restriction}: ${def.method} ${url} → ${res.statusCode} ${code ?? ""}`;
          if (def.method === "GET") reads++;
          else changes++;
          if (res.statusCode !== 403 || code !== "restricted")
            wrong.push(`${where}, expected 403 restricted`);
        }
      }
    }
    expect(changes).toBeGreaterThan(60);
    expect(reads).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });

  it("still reads what the restriction page shows: the site's brand, settings and pages", async () => {
    for (const person of people) {
      for (const url of ["/api/config", "/api/app-settings", "/api/site", "/api/health"]) {
        const res = await h.app.inject({ method: "GET", url, headers: { cookie: person.cookie } });
        expect(`${url} ${res.statusCode}`).toBe(`${url} 200`);
      }
    }
  });

  it("may download its own data", async () => {
    for (const person of people) {
      const res = await h.app.inject({
        method: "GET",
        url: "/api/account/export",
        headers: { cookie: person.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/zip");
      expect(res.rawPayload.subarray(0, 2).toString()).toBe("PK");
    }
  });

  it("may not import into the account", async () => {
    const res = await call(
      people[0]?.cookie as string,
      accountTransferEndpoints.import,
      accountTransferEndpoints.import.path,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiError>().code).toBe("restricted");
  });

  it("may delete its own account, after which its session opens nothing", async () => {
    for (const restriction of ["complete", "temporary"] as const) {
      const leaving = await h.signUp({ name: "Leaving" });
      await updateUser(h.database.db, leaving.id, { restriction });
      const res = await h.app.inject({
        method: "DELETE",
        url: "/api/users",
        headers: { cookie: leaving.cookie },
      });
      expect(res.statusCode).toBe(204);
      const me = await h.app.inject({ method: "GET", url: "/api/me", headers: { cookie: leaving.cookie } });
      expect(me.statusCode).toBe(401);
    }
  });

  it("can still read /api/me, so the client knows to show the restriction page", async () => {
    for (const person of people) {
      const res = await h.app.inject({ method: "GET", url: "/api/me", headers: { cookie: person.cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ permissions: string[] }>().permissions).toEqual([
        `restriction_${person.restriction}`,
      ]);
    }
  });
});
