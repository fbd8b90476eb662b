// Offline measurement of Recommended Bots (issue 11): on a generated interaction set (members
// with tag tastes; bots with tags and a long-tailed popularity; chats, ratings and favourites
// drawn from those tastes), one favourite per member is held out with every other trace of it
// (its chats and rating), and we ask where the ranking puts it: hit rate @10 and @50 of the
// ranking in features/recommendations/queries.ts against popularity alone over the same
// candidates. Runs on embedded PGlite, the default database.
// Run: npx tsx bench/recommendations.ts   (HEARTH_BENCH_USERS, HEARTH_BENCH_BOTS to resize)
import { randomUUID } from "node:crypto";
import { users } from "../apps/server/src/features/accounts/schema.ts";
import { characters, favorites } from "../apps/server/src/features/characters/schema.ts";
import { conversations } from "../apps/server/src/features/chats/schema.ts";
import { characterRatings } from "../apps/server/src/features/ratings/schema.ts";
import {
  RANKING_WEIGHTS,
  type RankingWeights,
  recommend,
} from "../apps/server/src/features/recommendations/queries.ts";
import { createTestDatabase } from "../apps/server/test/databases.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const USERS = Number(process.env.HEARTH_BENCH_USERS ?? 200);
const BOTS = Number(process.env.HEARTH_BENCH_BOTS ?? 1000);
const GENRES = ["fantasy", "scifi", "romance", "horror", "mystery", "slice-of-life", "anime", "historical"];
/** Sub-tags per genre: a bot carries its genre, one of these, and one tag from anywhere. */
const SUBTAGS = 4;
const CHATS_PER_USER = 10;
const FAVOURITES_PER_USER = 4;
/** How often a member's chat or favourite follows their taste (the rest follows popularity). */
const TASTE_SHARE = 0.7;
/** Taste weights tried beside the shipped one, to show how the figure depends on it. */
const SWEEP = (process.env.HEARTH_BENCH_SWEEP ?? "0,0.25,0.5,1").split(",").map(Number);

// A seeded generator (mulberry32): the same set every run, so figures compare across changes.
let seed = 20261124;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;

interface Bot {
  id: string;
  genre: string;
  tags: string[];
  /** Zipf-like weight: a few bots get most of the use. */
  weight: number;
  messages: number;
  ageDays: number;
}

/** Picks a bot from `pool` with probability proportional to its popularity weight. */
function byPopularity(pool: Bot[]): Bot {
  const total = pool.reduce((sum, b) => sum + b.weight, 0);
  let at = random() * total;
  for (const bot of pool) {
    at -= bot.weight;
    if (at <= 0) return bot;
  }
  return pool[pool.length - 1] as Bot;
}

const test = await createTestDatabase("pglite");
const db = test.database.db;
const started = Date.now();

const creators = Array.from({ length: 40 }, (_, i) => ({
  id: randomUUID(),
  name: `Creator ${i}`,
  email: `creator${i}@bench.test`,
}));
const members = Array.from({ length: USERS }, (_, i) => ({
  id: randomUUID(),
  name: `Member ${i}`,
  email: `member${i}@bench.test`,
  tastes: random() < 0.6 ? [pick(GENRES)] : [pick(GENRES), pick(GENRES)],
}));
await db.insert(users).values([...creators, ...members.map(({ tastes: _, ...u }) => u)]);

const allTags = GENRES.flatMap((g) => Array.from({ length: SUBTAGS }, (_, i) => `${g}-${i}`));
const bots: Bot[] = Array.from({ length: BOTS }, (_, rank) => {
  const genre = pick(GENRES);
  const tags = [...new Set([genre, `${genre}-${Math.floor(random() * SUBTAGS)}`, pick(allTags)])];
  const weight = 1 / (rank + 1) ** 0.9;
  return { id: randomUUID(), genre, tags, weight, messages: 0, ageDays: Math.floor(random() * 365) };
});
// Shuffle so popularity is not tied to insertion order (nor to the genre drawn first).
bots.sort(() => random() - 0.5);

// Interactions drawn from each member's taste, or from popularity alone.
const chats = new Map<string, Map<string, number>>();
const favs = new Map<string, Set<string>>();
const rates = new Map<string, Map<string, number>>();
for (const m of members) {
  const liked = bots.filter((b) => m.tastes.includes(b.genre));
  const draw = () => (random() < TASTE_SHARE ? byPopularity(liked) : byPopularity(bots));
  const mine = new Map<string, number>();
  for (let i = 0; i < CHATS_PER_USER; i++) {
    const bot = draw();
    const count = 2 + Math.floor(random() * (m.tastes.includes(bot.genre) ? 30 : 8));
    mine.set(bot.id, (mine.get(bot.id) ?? 0) + count);
    bot.messages += count;
  }
  chats.set(m.id, mine);
  const favourite = new Set<string>();
  while (favourite.size < FAVOURITES_PER_USER) favourite.add(draw().id);
  favs.set(m.id, favourite);
  const rated = new Map<string, number>();
  for (const [botId] of mine) {
    if (random() < 0.5) continue;
    const bot = bots.find((b) => b.id === botId) as Bot;
    rated.set(botId, m.tastes.includes(bot.genre) ? (random() < 0.7 ? 1 : 0.5) : random() < 0.5 ? -1 : 0.5);
  }
  rates.set(m.id, rated);
}

// Hold out one favourite per member, with its chats and rating: the bot to find again.
const heldOut = new Map<string, string>();
for (const m of members) {
  const favourite = favs.get(m.id) as Set<string>;
  const target = pick([...favourite]);
  heldOut.set(m.id, target);
  favourite.delete(target);
  chats.get(m.id)?.delete(target);
  rates.get(m.id)?.delete(target);
}

// Background use beyond these members (the rest of the site): popularity by weight.
for (const bot of bots) bot.messages += Math.round(bot.weight * 20_000 * (0.5 + random()));
const favouriteCounts = new Map<string, number>();
for (const set of favs.values())
  for (const id of set) favouriteCounts.set(id, (favouriteCounts.get(id) ?? 0) + 1);

const now = Date.now();
for (let i = 0; i < bots.length; i += 500) {
  await db.insert(characters).values(
    bots.slice(i, i + 500).map((b, j) => ({
      id: b.id,
      creatorUserId: (creators[(i + j) % creators.length] as { id: string }).id,
      name: `Bot ${i + j}`,
      tags: b.tags,
      visibility: "public" as const,
      numMessages: b.messages,
      numFavorites: favouriteCounts.get(b.id) ?? 0,
      createdAt: new Date(now - b.ageDays * 86_400_000),
    })),
  );
}
const conversationRows = [...chats].flatMap(([userId, map]) =>
  [...map].map(([characterId, messageCount]) => ({ id: randomUUID(), userId, characterId, messageCount })),
);
const favouriteRows = [...favs].flatMap(([userId, set]) =>
  [...set].map((characterId) => ({ userId, characterId })),
);
const ratingRows = [...rates].flatMap(([userId, map]) =>
  [...map].map(([characterId, score]) => ({
    userId,
    characterId,
    score,
    rating: score === 1 ? 5 : score === 0.5 ? 3 : 1,
  })),
);
for (const [table, rows] of [
  [conversations, conversationRows],
  [favorites, favouriteRows],
  [characterRatings, ratingRows],
] as const) {
  for (let i = 0; i < rows.length; i += 1000) {
    // biome-ignore lint/suspicious/noExplicitAny: three tables, each given its own rows
    await db.insert(table as any).values(rows.slice(i, i + 1000) as any);
  }
}
const generatedIn = Date.now() - started;

// Where each ranking puts the held-out favourite: Hearth's weights, popularity alone, and a sweep
// of the taste weight with the other weights as they are.
const variants: { label: string; mode: "ranked" | "popular"; weights?: RankingWeights }[] = [
  { label: "Hearth's ranking", mode: "ranked" },
  { label: "popularity alone (same candidates)", mode: "popular" },
  ...SWEEP.map((taste) => ({
    label: `taste weight ${taste}`,
    mode: "ranked" as const,
    weights: { ...RANKING_WEIGHTS, taste },
  })),
];
const hits = variants.map(() => ({ at10: 0, at50: 0 }));
const times: number[] = [];
for (const m of members) {
  const target = heldOut.get(m.id);
  for (const [i, v] of variants.entries()) {
    const t0 = performance.now();
    const { rows } = await recommend(db, {
      userId: m.id,
      nsfw: false,
      tags: [],
      limit: 50,
      mode: v.mode,
      weights: v.weights,
    });
    if (i === 0) times.push(performance.now() - t0);
    const at = rows.findIndex((r) => r.id === target);
    if (at >= 0 && at < 10) (hits[i] as { at10: number }).at10++;
    if (at >= 0) (hits[i] as { at50: number }).at50++;
  }
}
const full: number[] = [];
for (const m of members.slice(0, 20)) {
  const t0 = performance.now();
  await recommend(db, { userId: m.id, nsfw: false, tags: [], limit: 602 });
  full.push(performance.now() - t0);
}
await test.drop();

const rate = (n: number) => `${((100 * n) / USERS).toFixed(1)}%`;
const ratio = (a: number, b: number) => (b === 0 ? "n/a" : `${(a / b).toFixed(2)}x`);
const [ours, popular] = hits as [{ at10: number; at50: number }, { at10: number; at50: number }];
const table = [
  "| | hit rate @10 | hit rate @50 |",
  "|---|---|---|",
  `| Hearth's ranking (weights ${JSON.stringify(RANKING_WEIGHTS)}) | **${rate(ours.at10)}** | **${rate(ours.at50)}** |`,
  `| popularity alone (same candidates) | ${rate(popular.at10)} | ${rate(popular.at50)} |`,
  `| ratio | **${ratio(ours.at10, popular.at10)}** | **${ratio(ours.at50, popular.at50)}** |`,
].join("\n");
const sweep = [
  "| taste weight (others as shipped) | @10 | @50 |",
  "|---|---|---|",
  ...variants.slice(2).map((v, i) => {
    const h = hits[i + 2] as { at10: number; at50: number };
    return `| ${v.weights?.taste} | ${rate(h.at10)} | ${rate(h.at50)} |`;
  }),
].join("\n");

const markdown = `## Recommendations: finding a held-out favourite

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, embedded PGlite. A generated set (seeded, the same every run): ${USERS} members, each with one or two of ${GENRES.length} genre tastes; ${BOTS} bots tagged with a genre, a sub-tag and one random tag, with Zipf-like popularity; ${CHATS_PER_USER} chats and ${FAVOURITES_PER_USER} favourites per member, ${Math.round(TASTE_SHARE * 100)}% following their taste and the rest popularity, and a rating on about half the chatted bots (love or like in taste, dislike or like outside it): ${conversationRows.length} chats, ${favouriteRows.length} favourites, ${ratingRows.length} ratings (generated and stored in ${(generatedIn / 1000).toFixed(1)} s). One favourite per member is held out with its chats and rating; a hit is that bot in the first 10 or 50 of the member's list. Rerun: \`npx tsx bench/recommendations.ts\`.

${table}

How the figure moves with the taste weight (0 is popularity, rating and freshness without taste):

${sweep}

One member's full list (602 bots, one SQL statement over all ${BOTS} listed bots): median ${ms(median(full))} (50 bots: ${ms(median(times))}). The ranking is documented in \`apps/server/src/features/recommendations/queries.ts\`: ${RANKING_WEIGHTS.taste} × the cosine of the member's tag taste (chats weighted by ln(1 + messages), ratings ×2, favourites 3) with each bot's tags, plus ${RANKING_WEIGHTS.popularity} × log popularity normalised to the top candidate, ${RANKING_WEIGHTS.rating} × rating and ${RANKING_WEIGHTS.freshness} × freshness (30-day decay); members with no history get the popularity, rating and freshness mix. Limits: the generated tastes follow tags by construction, so this measures that the ranking uses taste at all and how much it adds over popularity, not how real members behave; the query scores every listed bot per request, linear in the catalogue.`;

writeSection("recommendations", markdown);
console.log(markdown);
