import {
  type ApiError,
  type ConversationCreated,
  RECOMMENDATION_COUNT,
  type RecommendationList,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { characters } from "../characters/schema.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { conversations } from "../chats/schema.ts";
import { characterRatings } from "../ratings/schema.ts";

/** GET /api/recommendations: who may ask, what is left out, and that the ranking follows the viewer's taste. */
describe.each(drivers)("recommendations on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let alice: Person;
  let bob: Person;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } });
    a = api(h);
    alice = await personAs(h, "free", "Alice");
    bob = await personAs(h, "premium", "Bob");
    // Science fiction is more used than fantasy: popularity alone puts it first.
    const bots: [string, Person, string[], number, boolean?][] = [
      ["Star Pilot", alice, ["scifi", "space"], 900],
      ["Robot Medic", alice, ["scifi", "robots"], 800],
      ["Ship Mind", bob, ["scifi", "space"], 700],
      ["Elf Archer", alice, ["fantasy", "elves"], 400],
      ["Dragon Sage", alice, ["fantasy", "dragons"], 350],
      ["Wizard Tutor", bob, ["fantasy", "magic"], 300],
      ["Hedge Witch", bob, ["fantasy", "magic"], 250],
      ["Night Club", alice, ["romance"], 20000, true],
      ["Cafe Owner", bob, ["slice of life"], 500],
    ];
    for (const [name, who, tags, numMessages, isNsfw] of bots) {
      const id = (await a.create(who, { name, visibility: "public", tags, is_nsfw: Boolean(isNsfw) })).id;
      ids[name] = id;
      await h.database.db.update(characters).set({ numMessages }).where(eq(characters.id, id));
    }
    await a.create(alice, { name: "Private Pal", visibility: "private", tags: ["fantasy"] });
  });
  afterAll(async () => {
    await h.stop();
  });

  const recommended = async (who: Person, query = "") => {
    const res = await a.get(`/api/recommendations${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RecommendationList>();
  };
  const names = async (who: Person, query = "") =>
    (await recommended(who, query)).characters.map((c) => c.name);

  it("is open to signed-out visitors, guests and every member role; restricted accounts are refused", async () => {
    for (const role of [
      "signed out",
      "guest",
      "free",
      "minimal",
      "basic",
      "premium",
      "admin",
      "limited",
    ] as const) {
      const list = await recommended(await personAs(h, role));
      expect(list.personalized, role).toBe(false);
      expect(list.characters.length, role).toBeGreaterThan(0);
      expect(list.characters.length).toBeLessThanOrEqual(RECOMMENDATION_COUNT);
    }
    const res = await a.get("/api/recommendations", await personAs(h, "restricted"));
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiError>().code).toBe("restricted");
  });

  it("gives newcomers the popular mix: listed bots, most used first, NSFW only when asked", async () => {
    const list = await names(await personAs(h, "guest"));
    expect(list.slice(0, 3)).toEqual(["Star Pilot", "Robot Medic", "Ship Mind"]);
    expect(list).not.toContain("Night Club");
    expect(list).not.toContain("Private Pal");
    expect(await names(await personAs(h, "signed out"), "?nsfw=true")).toContain("Night Club");
  });

  it("filters by every selected tag", async () => {
    expect(await names(await personAs(h, "free"), "?tags=fantasy,magic")).toEqual(
      expect.arrayContaining(["Wizard Tutor", "Hedge Witch"]),
    );
    expect(await names(await personAs(h, "free"), "?tags=fantasy,magic")).toHaveLength(2);
  });

  it("puts fantasy first for someone who chats with fantasy bots, leaving out favourites and heavy chats", async () => {
    const fan = await personAs(h, "free", "Fan");
    const started = await a.post("/api/conversations", { character_id: ids["Elf Archer"] }, fan);
    expect(started.statusCode).toBe(201);
    // A long chat with one fantasy bot, and a favourite of another.
    await h.database.db
      .update(conversations)
      .set({ messageCount: 40 })
      .where(eq(conversations.id, started.json<ConversationCreated>().conversation.id));
    expect((await a.post(`/api/characters/${ids["Dragon Sage"]}/favorite`, {}, fan)).statusCode).toBe(200);
    const list = await recommended(fan);
    expect(list.personalized).toBe(true);
    const order = list.characters.map((c) => c.name);
    expect(order.slice(0, 2).sort()).toEqual(["Hedge Witch", "Wizard Tutor"]);
    expect(order).not.toContain("Elf Archer"); // chatted with heavily
    expect(order).not.toContain("Dragon Sage"); // already a favourite
  });

  it("follows ratings: a loved bot's tags rise, a disliked one's sink", async () => {
    const rater = await personAs(h, "premium", "Rater");
    await h.database.db.insert(characterRatings).values([
      { userId: rater.id as string, characterId: ids["Cafe Owner"] as string, rating: 5, score: 1 },
      { userId: rater.id as string, characterId: ids["Star Pilot"] as string, rating: 1, score: -1 },
    ]);
    const order = await names(rater);
    expect(order[0]).toBe("Cafe Owner");
    expect(order.indexOf("Ship Mind")).toBeGreaterThan(order.indexOf("Elf Archer"));
  });

  it("leaves out the viewer's own bots and those of creators they blocked", async () => {
    const bobs = await names(bob);
    for (const own of ["Ship Mind", "Wizard Tutor", "Hedge Witch", "Cafe Owner"])
      expect(bobs).not.toContain(own);
    expect(bobs).toContain("Star Pilot");
    const member = await personAs(h, "basic");
    expect((await a.post("/api/users/blocked-creators", { creator: alice.id }, member)).statusCode).toBe(200);
    const order = await names(member);
    expect(order.sort()).toEqual(["Cafe Owner", "Hedge Witch", "Ship Mind", "Wizard Tutor"]);
  });
});
