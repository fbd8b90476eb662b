import { characterCreate, type LeaderboardPage } from "@hearth/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { ensureSystemUser } from "../characters/index.ts";
import { characterMonthlyMessages, characters, favorites } from "../characters/schema.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { characterRatings } from "../ratings/schema.ts";
import { runLeaderboardJob } from "./index.ts";
import { leaderboardEntries } from "./schema.ts";

/**
 * The creators leaderboard on a generated pair of months (January and February 2031, far from
 * the real clock, so the job's own run at start finds nothing there): ranks, scores, bot counts,
 * movement, the system account left out, the finalised month, and the served, cached answer.
 */
describe.each(drivers)("leaderboard on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  const people: Record<"a" | "b" | "c" | "d" | "r1" | "r2", Person> = {} as never;
  const bots: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } });
    a = api(h);
    const db = h.database.db;
    for (const key of ["a", "b", "c", "d", "r1", "r2"] as const)
      people[key] = await personAs(h, "free", `Creator ${key}`);
    const bot = async (
      key: string,
      who: Person,
      created: string,
      visibility: "public" | "private" = "public",
    ) => {
      const c = await a.create(who, { name: key, visibility });
      await db
        .update(characters)
        .set({ createdAt: new Date(created) })
        .where(eq(characters.id, c.id));
      bots[key] = c.id;
    };
    await bot("a1", people.a, "2030-06-01T00:00:00Z");
    await bot("a2", people.a, "2031-02-05T00:00:00Z");
    await bot("b1", people.b, "2031-01-10T00:00:00Z");
    await bot("c1", people.c, "2030-01-01T00:00:00Z");
    await bot("d1", people.d, "2030-01-01T00:00:00Z", "private");
    const system = await ensureSystemUser(db);
    const demo = await h.characters.create(
      system.id,
      characterCreate.parse({ name: "Demo", visibility: "public" }),
      {
        moderationStatus: "approved",
      },
    );
    bots.demo = demo.id;

    const monthly: [string, string, number][] = [
      ["a1", "2031-01", 100],
      ["b1", "2031-01", 50],
      ["c1", "2031-01", 10],
      ["d1", "2031-01", 5000],
      ["demo", "2031-01", 1000],
      ["a1", "2031-02", 10],
      ["a2", "2031-02", 30],
      ["b1", "2031-02", 200],
      ["c1", "2031-02", 5],
      ["demo", "2031-02", 1000],
    ];
    await db
      .insert(characterMonthlyMessages)
      .values(
        monthly.map(([key, month, messages]) => ({ characterId: bots[key] as string, month, messages })),
      );
    const at = (iso: string) => new Date(iso);
    await db.insert(characterRatings).values([
      // January: a dislike of a1 (-1 × 10).
      {
        userId: people.r1.id as string,
        characterId: bots.a1 as string,
        rating: 1,
        score: -1,
        updatedAt: at("2031-01-20T00:00:00Z"),
      },
      // February: two loves of c1 (+1 × 10 each).
      {
        userId: people.r1.id as string,
        characterId: bots.c1 as string,
        rating: 5,
        score: 1,
        updatedAt: at("2031-02-03T00:00:00Z"),
      },
      {
        userId: people.r2.id as string,
        characterId: bots.c1 as string,
        rating: 5,
        score: 1,
        updatedAt: at("2031-02-04T00:00:00Z"),
      },
    ]);
    // February: a new favourite of b1 (+5).
    await db.insert(favorites).values({
      userId: people.r1.id as string,
      characterId: bots.b1 as string,
      createdAt: at("2031-02-06T00:00:00Z"),
    });

    expect(await runLeaderboardJob(db, new Date("2031-02-20T12:00:00Z"))).toEqual(["2031-01", "2031-02"]);
  });
  afterAll(async () => {
    await h.stop();
  });

  const board = async (query: string) => {
    const res = await a.get(`/api/leaderboard?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LeaderboardPage>();
  };
  const ranks = (page: LeaderboardPage) =>
    page.hits.map((hit) => ({
      who: Object.entries(people).find(([, p]) => p.id === hit.creator_user_id)?.[0] ?? hit.creator_username,
      rank: hit.rank,
      score: hit.score,
      bots: hit.number_of_characters,
      movement: hit.movement,
    }));

  it("ranks January's creators: All Bots and New Bots", async () => {
    expect(ranks(await board("type=all_bots&date=2031-01"))).toEqual([
      { who: "a", rank: 1, score: 90, bots: 1, movement: null },
      { who: "b", rank: 2, score: 50, bots: 1, movement: null },
      { who: "c", rank: 3, score: 10, bots: 1, movement: null },
    ]);
    expect(ranks(await board("type=new_bots&date=2031-01"))).toEqual([
      { who: "b", rank: 1, score: 50, bots: 1, movement: null },
    ]);
  });

  it("ranks February with messages, ratings and favourites, and the movement since January", async () => {
    const page = await board("type=all_bots&date=2031-02");
    expect(ranks(page)).toEqual([
      { who: "b", rank: 1, score: 205, bots: 1, movement: 1 },
      { who: "a", rank: 2, score: 40, bots: 2, movement: -1 },
      { who: "c", rank: 3, score: 25, bots: 1, movement: 0 },
    ]);
    expect(page.hits[0]?.creator_username).toMatch(/^u/);
    expect(ranks(await board("type=new_bots&date=2031-02"))).toEqual([
      { who: "a", rank: 1, score: 30, bots: 1, movement: null },
    ]);
  });

  it("leaves out the system account's demo bots and private bots", async () => {
    const all = await h.database.db.select().from(leaderboardEntries);
    const ranked = new Set(all.map((e) => e.creatorUserId));
    expect(ranked.has(people.d.id as string)).toBe(false);
    expect(ranked.size).toBe(3);
  });

  it("answers the newest month for a missing or unavailable date, lists the months, may be cached 120 s", async () => {
    const res = await a.get("/api/leaderboard?type=all_bots");
    expect(res.headers["cache-control"]).toBe("public, max-age=120");
    const newest = res.json<LeaderboardPage>();
    expect(newest).toMatchObject({
      date: "2031-02",
      dates: ["2031-02", "2031-01"],
      page: 1,
      pages: 1,
      total: 3,
    });
    expect((await board("type=all_bots&date=1999-01")).date).toBe("2031-02");
    expect((await board("type=all_bots&date=nonsense")).date).toBe("2031-02");
    expect((await board("type=all_bots&page=2")).hits).toEqual([]);
    expect((await a.get("/api/leaderboard?type=everything")).statusCode).toBe(400);
  });

  it("is idempotent, and a month is final once computed after its end", async () => {
    const db = h.database.db;
    const snapshot = async (month: string) =>
      (await db.select().from(leaderboardEntries).where(eq(leaderboardEntries.month, month)))
        .map(({ computedAt: _, ...rest }) => rest)
        .sort((x, y) => `${x.category}${x.rank}`.localeCompare(`${y.category}${y.rank}`));
    const february = await snapshot("2031-02");
    expect(await runLeaderboardJob(db, new Date("2031-02-21T00:00:00Z"))).toEqual(["2031-02"]);
    expect(await snapshot("2031-02")).toEqual(february);

    // March begins: February is computed once more (final), then left alone.
    expect(await runLeaderboardJob(db, new Date("2031-03-01T01:00:00Z"))).toEqual(["2031-02", "2031-03"]);
    await db
      .update(characterMonthlyMessages)
      .set({ messages: 100_000 })
      .where(
        and(
          eq(characterMonthlyMessages.characterId, bots.c1 as string),
          eq(characterMonthlyMessages.month, "2031-02"),
        ),
      );
    expect(await runLeaderboardJob(db, new Date("2031-03-02T01:00:00Z"))).toEqual(["2031-03"]);
    expect(await snapshot("2031-02")).toEqual(february);
  });
});
