import type { ApiError, CharacterPage, CharacterTags, CreatorProfile, FavoriteState } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { characters } from "./schema.ts";
import { api, type Person, personAs } from "./test-support.ts";

/** Browse, My Chatbots, favorites, creator pages and tags: the SQL-heavy part, so on both databases. */
describe.each(drivers)("character lists on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let alice: Person;
  let bob: Person;
  let admin: Person;
  let guest: Person;
  const ids: Record<string, string> = {};

  const setStats = (id: string, stats: { numMessages?: number; ratingScore?: number | null }) =>
    h.database.db.update(characters).set(stats).where(eq(characters.id, id));

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } });
    a = api(h);
    alice = await personAs(h, "free", "Alice");
    bob = await personAs(h, "premium", "Bob");
    admin = await personAs(h, "admin");
    guest = await personAs(h, "guest");
    const make = async (key: string, who: Person, fields: Parameters<typeof a.create>[1]) => {
      ids[key] = (await a.create(who, { name: key, ...fields })).id;
    };
    await make("Ember Innkeeper", alice, {
      visibility: "public",
      title: "Keeps the hearth warm",
      tags: ["fantasy", "cozy"],
    });
    await make("Noir Detective", alice, {
      visibility: "public",
      title: "Rain and regrets",
      tags: ["noir", "mystery"],
    });
    await make("Ship Mind", bob, { visibility: "public", title: "A starship's AI", tags: ["scifi", "cozy"] });
    await make("Night Club", bob, { visibility: "public", tags: ["romance"], is_nsfw: true });
    await make("Secret Diary", alice, { visibility: "private", tags: ["cozy"] });
    await make("Unlisted Owl", alice, { visibility: "hidden", tags: ["cozy"] });
    await setStats(ids["Ember Innkeeper"] as string, { numMessages: 500, ratingScore: 0.6 });
    await setStats(ids["Noir Detective"] as string, { numMessages: 900, ratingScore: 0.9 });
    await setStats(ids["Ship Mind"] as string, { numMessages: 900, ratingScore: null });
    await setStats(ids["Night Club"] as string, { numMessages: 2000, ratingScore: 0.7 });
  });
  afterAll(async () => {
    await h.stop();
  });

  const names = (res: { json: <T>() => T }) => res.json<CharacterPage>().characters.map((c) => c.name);

  describe("browse (GET /api/characters)", () => {
    it("lists public bots only, most used first, without NSFW unless asked", async () => {
      expect(names(await a.get("/api/characters"))).toEqual(
        expect.arrayContaining(["Noir Detective", "Ship Mind", "Ember Innkeeper"]),
      );
      const popular = names(await a.get("/api/characters?sort=popular"));
      expect(popular).not.toContain("Night Club");
      expect(popular).not.toContain("Secret Diary");
      expect(popular).not.toContain("Unlisted Owl");
      expect(popular.indexOf("Ember Innkeeper")).toBeGreaterThan(popular.indexOf("Ship Mind"));
      expect(names(await a.get("/api/characters?nsfw=true"))[0]).toBe("Night Club");
    });

    it("is open to signed-out visitors and guests, refused to restricted accounts", async () => {
      expect((await a.get("/api/characters", guest)).statusCode).toBe(200);
      expect((await a.get("/api/characters")).statusCode).toBe(200);
      const restricted = await personAs(h, "restricted");
      expect((await a.get("/api/characters", restricted)).json<ApiError>().code).toBe("restricted");
    });

    it("sorts by rating (unrated last) and by newest", async () => {
      const rated = names(await a.get("/api/characters?sort=rating"));
      expect(rated.slice(0, 2)).toEqual(["Noir Detective", "Ember Innkeeper"]);
      expect(rated.at(-1)).toBe("Ship Mind");
      const fresh = names(await a.get("/api/characters?sort=new&nsfw=true"));
      expect(fresh.slice(0, 2)).toEqual(["Night Club", "Ship Mind"]);
    });

    it("searches name, title and tags, case-insensitively; % and _ are literal", async () => {
      expect(names(await a.get("/api/characters?q=DETECT"))).toEqual(["Noir Detective"]);
      expect(names(await a.get("/api/characters?q=starship"))).toEqual(["Ship Mind"]);
      expect(names(await a.get("/api/characters?q=Noir"))).toEqual(["Noir Detective"]);
      expect(names(await a.get("/api/characters?q=scifi"))).toEqual(["Ship Mind"]);
      expect(names(await a.get("/api/characters?q=%25"))).toEqual([]);
      expect(names(await a.get("/api/characters?q=_"))).toEqual([]);
    });

    it("filters by all given tags", async () => {
      expect(names(await a.get("/api/characters?tags=cozy")).sort()).toEqual([
        "Ember Innkeeper",
        "Ship Mind",
      ]);
      expect(names(await a.get("/api/characters?tags=cozy,Fantasy"))).toEqual(["Ember Innkeeper"]);
      expect(names(await a.get("/api/characters?tags=cozy,noir"))).toEqual([]);
    });

    it("pages with a cursor, stable under ties, and every row once", async () => {
      for (const sort of ["popular", "new", "rating"]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const url = `/api/characters?nsfw=true&sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ""}`;
          const p: CharacterPage = (await a.get(url)).json<CharacterPage>();
          seen.push(...p.characters.map((c) => c.name));
          cursor = p.next_cursor;
        } while (cursor);
        expect(seen, sort).toHaveLength(4);
        expect(new Set(seen).size, sort).toBe(4);
        expect(seen, sort).toEqual(names(await a.get(`/api/characters?nsfw=true&sort=${sort}`)));
      }
    });

    it("refuses bad queries and forged cursors with 400", async () => {
      const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
      for (const query of [
        "limit=0",
        "limit=1000",
        "sort=oldest",
        "nsfw=maybe",
        "cursor=%%%",
        `cursor=${forged(["x", "y"])}`,
        `cursor=${forged([1e300, "00000000-0000-4000-8000-000000000000"])}`,
        `cursor=${forged([1, "not-a-uuid"])}`,
        `cursor=${forged([1])}`,
        `q=${"x".repeat(101)}`,
      ]) {
        const res = await a.get(`/api/characters?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json<ApiError>().code).toBe("invalidRequest");
      }
      const badDate = await a.get(
        `/api/characters?sort=new&cursor=${forged(["yesterday", "00000000-0000-4000-8000-000000000000"])}`,
      );
      expect(badDate.statusCode).toBe(400);
    });

    it("a bot a moderator sent back is not listed, but its link still works", async () => {
      const c = await a.create(bob, { name: "Rejected Bard", visibility: "public" });
      // HEARTH_REVIEW_PUBLIC_BOTS=false here: public bots are approved at once.
      expect(c.moderationReport.moderation_status).toBe("approved");
      expect(names(await a.get("/api/characters?q=bard"))).toEqual(["Rejected Bard"]);
      await a.put(`/api/admin/characters/${c.id}/moderation`, { moderation_status: "fix_required" }, admin);
      expect(names(await a.get("/api/characters?q=bard"))).toEqual([]);
      expect((await a.get(`/api/characters/${c.id}`, alice)).statusCode).toBe(200);
    });
  });

  describe("My Chatbots (GET /api/users/characters?switch=T1)", () => {
    it("lists every own bot, fix_required first, then review states, then by last edit", async () => {
      const owner = await personAs(h, "basic");
      const make = (name: string, visibility: "public" | "private" = "private") =>
        a.create(owner, { name, visibility });
      const old = await make("Old");
      const review = await make("In Review");
      const fix = await make("Needs Fix");
      const recent = await make("Recent");
      await a.put(
        `/api/admin/characters/${review.id}/moderation`,
        { moderation_status: "rereview_required" },
        admin,
      );
      await a.put(`/api/admin/characters/${fix.id}/moderation`, { moderation_status: "fix_required" }, admin);
      await a.patch(`/api/characters/${old.id}`, { title: "touched" }, owner);
      const list = await a.get("/api/users/characters?switch=T1", owner);
      expect(list.statusCode).toBe(200);
      expect(names(list)).toEqual(["Needs Fix", "In Review", "Old", "Recent"]);
      const badges = list.json<CharacterPage>().characters.map((c) => c.moderationReport.moderation_status);
      expect(badges.slice(0, 2)).toEqual(["fix_required", "rereview_required"]);

      // Paging through the status order gives the same sequence.
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await a.get(`/api/users/characters?limit=1${cursor ? `&cursor=${cursor}` : ""}`, owner);
        const p: CharacterPage = res.json<CharacterPage>();
        seen.push(...p.characters.map((c) => c.name));
        cursor = p.next_cursor;
      } while (cursor);
      expect(seen).toEqual(["Needs Fix", "In Review", "Old", "Recent"]);

      expect(names(await a.get("/api/users/characters?sort=name", owner))).toEqual([
        "In Review",
        "Needs Fix",
        "Old",
        "Recent",
      ]);
      expect(names(await a.get("/api/users/characters?q=rec", owner))).toEqual(["Recent"]);
      expect(names(await a.get("/api/users/characters?moderation_status=fix_required", owner))).toEqual([
        "Needs Fix",
      ]);
      await a.patch(`/api/characters/${recent.id}`, { visibility: "hidden" }, owner);
      expect(names(await a.get("/api/users/characters?visibility=hidden", owner))).toEqual(["Recent"]);
      expect((await a.get("/api/users/characters?visibility=secret", owner)).statusCode).toBe(400);
    });

    it("needs view_my_chat_bots: not signed out, guests or limited accounts", async () => {
      expect((await a.get("/api/users/characters")).statusCode).toBe(401);
      expect((await a.get("/api/users/characters", guest)).statusCode).toBe(403);
      expect((await a.get("/api/users/characters", await personAs(h, "limited"))).statusCode).toBe(403);
      const restricted = await a.get("/api/users/characters", await personAs(h, "restricted"));
      expect(restricted.json<ApiError>().code).toBe("restricted");
    });

    it("a deleted bot leaves the list", async () => {
      const owner = await personAs(h, "free");
      const c = await a.create(owner, { name: "Short-lived" });
      await a.delete(`/api/characters/${c.id}`, owner);
      expect(names(await a.get("/api/users/characters", owner))).toEqual([]);
    });
  });

  describe("favorites", () => {
    it("members favorite and unfavorite visible bots; counts follow; repeats are harmless", async () => {
      const id = ids["Ship Mind"] as string;
      const url = `/api/characters/${id}/favorite`;
      const first = await a.post(url, {}, alice);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json<FavoriteState>()).toEqual({ is_favorite: true, num_favorites: 1 });
      expect((await a.post(url, {}, alice)).json<FavoriteState>().num_favorites).toBe(1);
      expect((await a.post(url, {}, admin)).json<FavoriteState>().num_favorites).toBe(2);
      const profile = await a.get(`/api/characters/${id}`, alice);
      expect(profile.json()).toMatchObject({ is_favorite: true, num_favorites: 2 });
      expect(names(await a.get("/api/users/favorites", alice))).toEqual(["Ship Mind"]);
      expect((await a.delete(url, admin)).json<FavoriteState>()).toEqual({
        is_favorite: false,
        num_favorites: 1,
      });
      expect((await a.delete(url, admin)).json<FavoriteState>().num_favorites).toBe(1);
    });

    it("the creator cannot favorite their own bot; guests and signed-out visitors cannot favorite", async () => {
      const url = `/api/characters/${ids["Ship Mind"]}/favorite`;
      const own = await a.post(url, {}, bob);
      expect(own.statusCode).toBe(400);
      expect(own.json<ApiError>().message).toBe("You cannot favorite your own chatbot.");
      expect((await a.post(url, {}, guest)).statusCode).toBe(403);
      expect((await a.post(url, {})).statusCode).toBe(401);
      expect((await a.get("/api/users/favorites", guest)).statusCode).toBe(403);
      expect((await a.get("/api/users/favorites")).statusCode).toBe(401);
      const hidden = await a.post(`/api/characters/${ids["Secret Diary"]}/favorite`, {}, bob);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json<ApiError>().code).toBe("invalidAccess");
      expect((await a.post(`/api/characters/${ids["Unlisted Owl"]}/favorite`, {}, bob)).statusCode).toBe(200);
    });

    it("favorites page newest first, and a bot made private drops out", async () => {
      const fan = await personAs(h, "minimal");
      const owner = await personAs(h, "free");
      const made = [];
      for (const name of ["Fav One", "Fav Two", "Fav Three"]) {
        const c = await a.create(owner, { name, visibility: "hidden" });
        made.push(c);
        await a.post(`/api/characters/${c.id}/favorite`, {}, fan);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await a.get(`/api/users/favorites?limit=2${cursor ? `&cursor=${cursor}` : ""}`, fan);
        const p: CharacterPage = res.json<CharacterPage>();
        seen.push(...p.characters.map((c) => c.name));
        cursor = p.next_cursor;
      } while (cursor);
      expect(seen).toEqual(["Fav Three", "Fav Two", "Fav One"]);
      await a.patch(`/api/characters/${made[1]?.id}`, { visibility: "private" }, owner);
      expect(names(await a.get("/api/users/favorites", fan))).toEqual(["Fav Three", "Fav One"]);
    });
  });

  describe("creator pages (GET /api/creators/{username})", () => {
    it("shows the creator's listed bots to anyone", async () => {
      const me = await h.app.inject({
        method: "GET",
        url: "/api/me",
        headers: { cookie: alice.cookie ?? "" },
      });
      const username = me.json<{ username: string }>().username;
      const res = await a.get(`/api/creators/${username.toUpperCase()}`);
      expect(res.statusCode).toBe(200);
      const profile = res.json<CreatorProfile>();
      expect(profile.creator).toMatchObject({ id: alice.id, username, name: "Alice" });
      expect(profile.characters.map((c) => c.name).sort()).toEqual(["Ember Innkeeper", "Noir Detective"]);
    });

    it("answers 404 for an unknown creator", async () => {
      const res = await a.get("/api/creators/nobody-here");
      expect(res.statusCode).toBe(404);
      expect(res.json<ApiError>().code).toBe("notFound");
    });
  });

  describe("tags (GET /api/characters/tags)", () => {
    it("counts tags over listed bots, most used first", async () => {
      const res = await a.get("/api/characters/tags");
      expect(res.statusCode).toBe(200);
      const { tags } = res.json<CharacterTags>();
      expect(tags[0]).toEqual({ tag: "cozy", count: 2 });
      expect(tags.map((t) => t.tag)).not.toContain("romance");
      expect(
        (await a.get("/api/characters/tags?nsfw=true")).json<CharacterTags>().tags.map((t) => t.tag),
      ).toContain("romance");
      expect((await a.get("/api/characters/tags?limit=0")).statusCode).toBe(400);
    });
  });
});

describe("the family edition", () => {
  it("never lists NSFW bots, whatever the query says", async () => {
    const h = await startTestHearth({
      env: { HEARTH_EDITION: "family", HEARTH_REVIEW_PUBLIC_BOTS: "false" },
    });
    try {
      const a = api(h);
      const owner = await personAs(h, "free");
      await a.create(owner, { name: "Spicy", visibility: "public", is_nsfw: true });
      await a.create(owner, { name: "Mild", visibility: "public" });
      const res = await a.get("/api/characters?nsfw=true");
      expect(res.json<CharacterPage>().characters.map((c) => c.name)).toEqual(["Mild"]);
    } finally {
      await h.stop();
    }
  });
});
