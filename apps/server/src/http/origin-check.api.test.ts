import {
  type ApiError,
  allEndpoints,
  type Character,
  type Conversation,
  type ConversationCreated,
  type FavoriteState,
  pathOf,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../test/chat.ts";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";

/**
 * Cross-site request forgery: every state-changing endpoint outside better-auth's routes and the
 * key-opened /v1 refuses a request whose Origin is missing or foreign with 403 `crossOrigin`,
 * before it reads the body; Hearth's own origin (and configured trusted ones) gets through.
 */

const OWN = "http://localhost:3000";
const FOREIGN = ["http://evil.example", "http://localhost:3001", "https://localhost:3000", "null", ""];
// Key-opened endpoints and payment providers' webhooks (verified by their signature; no browser
// sends them) guard themselves.
const guarded = allEndpoints.filter(
  (e) => e.method !== "GET" && e.access !== "api-key" && !e.path.startsWith("/api/billing/webhooks/"),
);

describe.each(drivers)("the Origin check (%s)", (driver) => {
  let h: TestHearth;
  let member: { cookie: string; id: string };
  let characterId: string;
  let conversationId: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_RATE_LIMIT: "0", HEARTH_LOCAL_SERVERS: "off" } });
    member = await h.signUp({ name: "Member" });
    const creator = await h.signUp({ name: "Creator" });
    characterId = (await insertTestCharacter(h.database.db, creator.id)).id;
    const created = await h.app.inject({
      method: "POST",
      url: "/api/conversations",
      headers: { cookie: member.cookie, "content-type": "application/json" },
      payload: JSON.stringify({ character_id: characterId }),
    });
    expect(created.statusCode, created.body).toBe(201);
    conversationId = created.json<ConversationCreated>().conversation.id;
  });
  afterAll(async () => {
    await h?.stop();
  });

  const send = (method: "POST" | "PATCH", url: string, origin: string | undefined, body?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: {
        cookie: member.cookie,
        host: "localhost:3000",
        // `origin: undefined` tells the harness to send none (see actLikeABrowser).
        origin: origin || undefined,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const isFavorite = async () =>
    (
      await h.app.inject({
        method: "GET",
        url: `/api/characters/${characterId}`,
        headers: { cookie: member.cookie },
      })
    ).json<Character>().is_favorite;
  const title = async () =>
    (
      await h.app.inject({
        method: "GET",
        url: `/api/conversations/${conversationId}`,
        headers: { cookie: member.cookie },
      })
    ).json<Conversation>().label;

  it("walks every state-changing endpoint: a missing or foreign Origin is refused before the body is read", async () => {
    expect(guarded.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const def of guarded) {
      const names = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const url = pathOf(def.path, Object.fromEntries(names.map((n) => [n, crypto.randomUUID()])));
      for (const origin of FOREIGN) {
        // A body that does not parse: had the request been read, the answer would be 400 or 415.
        const res = await h.app.inject({
          method: def.method,
          url,
          headers: {
            cookie: member.cookie,
            origin: origin || undefined,
            "content-type": "application/json",
          },
          payload: "{ not json",
        });
        const code = res.statusCode === 403 ? res.json<ApiError>().code : null;
        if (code !== "crossOrigin")
          wrong.push(`${def.method} ${def.path} from "${origin}": ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers 403 crossOrigin with a sentence, and changes nothing; the same requests from Hearth's own pages work", async () => {
    const label = await title();
    for (const origin of FOREIGN) {
      const fav = await send("POST", `/api/characters/${characterId}/favorite`, origin);
      expect(fav.statusCode).toBe(403);
      const body = fav.json<ApiError>();
      expect(body.code).toBe("crossOrigin");
      expect(body.message).toMatch(/did not come from Hearth's own pages/);
      const rename = await send("PATCH", `/api/conversations/${conversationId}`, origin, { label: "Pwned" });
      expect(rename.json<ApiError>().code).toBe("crossOrigin");
    }
    expect(await isFavorite()).toBe(false);
    expect(await title()).toBe(label);

    const fav = await send("POST", `/api/characters/${characterId}/favorite`, OWN);
    expect(fav.statusCode, fav.body).toBe(200);
    expect(fav.json<FavoriteState>().is_favorite).toBe(true);
    const rename = await send("PATCH", `/api/conversations/${conversationId}`, OWN, { label: "Renamed" });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(await title()).toBe("Renamed");
  });

  it("leaves reads, better-auth's own routes and the key-opened /v1 alone", async () => {
    const read = await h.app.inject({
      method: "GET",
      url: `/api/conversations/${conversationId}`,
      headers: { cookie: member.cookie, origin: "http://evil.example" },
    });
    expect(read.statusCode).toBe(200);
    // better-auth refuses a foreign origin itself, with its own answer.
    const signOut = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: member.cookie, origin: "http://evil.example" },
    });
    expect(signOut.statusCode).toBe(403);
    expect(signOut.json<{ code?: string }>().code).not.toBe("crossOrigin");
    const v1 = await h.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { origin: undefined, "content-type": "application/json" },
      payload: "{}",
    });
    expect(v1.statusCode).toBe(404); // no HEARTH_API_KEY here: closed, not refused as cross-site
  });

  it("over real HTTP, refuses a client that sends no Origin (curl, a script) and accepts Hearth's own", async () => {
    const base = await h.listen();
    const post = (origin: string) =>
      fetch(`${base}/api/characters/${characterId}/favorite`, {
        method: "DELETE",
        headers: { cookie: member.cookie, origin },
      });
    const none = await post(""); // the harness sends "" as no header at all
    expect(none.status).toBe(403);
    expect(((await none.json()) as ApiError).code).toBe("crossOrigin");
    expect((await post(new URL(base).origin)).status).toBe(200);
  });
});

// Each case starts one or two fresh Hearths on PGlite: over a minute on two busy cores.
describe("the Origin check's notion of Hearth's own origin", { timeout: 180_000 }, () => {
  /** Favorites a bot once per header set on a Hearth with `env`: 200, or the refusal's code. */
  const favoriteWith = async (env: Record<string, string>, ...tries: Record<string, string>[]) => {
    const h = await startTestHearth({ env });
    try {
      const me = await h.signUp();
      const creator = await h.signUp();
      const answers: (string | number)[] = [];
      for (const headers of tries) {
        const character = await insertTestCharacter(h.database.db, creator.id);
        const res = await h.app.inject({
          method: "POST",
          url: `/api/characters/${character.id}/favorite`,
          headers: { cookie: me.cookie, ...headers },
        });
        answers.push(res.statusCode === 403 ? res.json<ApiError>().code : res.statusCode);
      }
      return answers;
    } finally {
      await h.stop();
    }
  };

  it("is PUBLIC_URL when set, whatever Host the request names", async () => {
    // A proxy on this machine forwarding to its upstream address; a name Hearth does not answer to
    // is refused before this check (host-check.api.test.ts).
    expect(
      await favoriteWith(
        { PUBLIC_URL: "https://chat.example.com/" },
        { origin: "https://chat.example.com", host: "127.0.0.1:3000" },
        { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" },
      ),
    ).toEqual([200, "crossOrigin"]);
  });

  it("honours X-Forwarded-Proto and -Host only behind a trusted proxy", async () => {
    const proxied = {
      origin: "https://chat.example.com",
      host: "127.0.0.1:3000",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "chat.example.com",
    };
    const direct = { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" };
    // The forwarded name must be one Hearth answers to (host-check.ts).
    const behindProxy = { HEARTH_TRUST_PROXY: "true", HEARTH_ALLOWED_HOSTS: "chat.example.com" };
    expect(await favoriteWith(behindProxy, proxied)).toEqual([200]);
    expect(await favoriteWith({}, proxied, direct)).toEqual(["crossOrigin", 200]);
  });

  it("also accepts the origins in HEARTH_TRUSTED_ORIGINS, and only those", async () => {
    expect(
      await favoriteWith(
        { HEARTH_TRUSTED_ORIGINS: "https://partner.example, https://other.example:8443" },
        { origin: "https://other.example:8443" },
        { origin: "https://partner.example" },
        { origin: "https://partner.example.evil" },
      ),
    ).toEqual([200, 200, "crossOrigin"]);
  });
});
