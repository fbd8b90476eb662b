// Memory recall (issue 14): on a generated roleplay memory set, a fact is planted as a memory
// and asked about N memories later (N up to 499, the rest distractors written from the same
// templates with other names, places and things). recall@1 and @5 of the shipped ranking
// (features/memories/queries.ts: full-text keywords fused with recency) against recency alone,
// and the time of one recall in a conversation of 10,000 messages and 500 memories.
// Runs on embedded PGlite, the default database. Run: npx tsx bench/memories.ts
import { randomUUID } from "node:crypto";
import { users } from "../apps/server/src/features/accounts/schema.ts";
import { characters } from "../apps/server/src/features/characters/schema.ts";
import { conversations, messages } from "../apps/server/src/features/chats/schema.ts";
import { rankMemories } from "../apps/server/src/features/memories/queries.ts";
import { memories } from "../apps/server/src/features/memories/schema.ts";
import { createTestDatabase } from "../apps/server/test/databases.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const GAPS = [10, 50, 200, 499];
const QUESTIONS_PER_GAP = 25;

// A seeded generator (mulberry32): the same set every run, so figures compare across changes.
let seed = 20261124;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const NAMES = [
  "Ada",
  "Tomas",
  "Rowan",
  "Imke",
  "Bastian",
  "Odile",
  "Perrin",
  "Yusuf",
  "Greta",
  "Linnea",
  "Corvin",
  "Maelis",
];
const PLACES = [
  "the old mill",
  "the harbor",
  "the northern pass",
  "the chapel ruins",
  "the salt marsh",
  "the clock tower",
];
const THINGS = [
  "a brass compass",
  "a silver locket",
  "a map of the coast",
  "a cracked lantern",
  "a sealed letter",
  "a hunting horn",
];
const ANIMALS = ["bees", "goats", "a one-eyed cat", "carrier pigeons", "a lame horse", "ravens"];

/** A fact and a later question that shares only its specific words with it (names, things). */
const TEMPLATES: (() => { fact: string; question: string })[] = [
  () => {
    const [n, p] = [pick(NAMES), pick(PLACES)];
    return {
      fact: `Sam's sister ${n} lives near ${p}.`,
      question: `Have you heard any news of ${n} lately?`,
    };
  },
  () => {
    const [t, n] = [pick(THINGS), pick(NAMES)];
    return {
      fact: `${n} gave Sam ${t} before leaving.`,
      question: `Where did I put ${t.replace(/^an? /, "the ")}?`,
    };
  },
  () => {
    const [a, p] = [pick(ANIMALS), pick(PLACES)];
    return {
      fact: `Sam keeps ${a} at ${p}.`,
      question: `Should we check on the ${a.replace(/^an? /, "")} today?`,
    };
  },
];

const test = await createTestDatabase("pglite");
await test.database.migrate();
const db = test.database.db;
const userId = randomUUID();
await db
  .insert(users)
  .values({ id: userId, name: "Bench", email: `${userId}@bench.test` } as typeof users.$inferInsert);
const characterId = randomUUID();
await db
  .insert(characters)
  .values({ id: characterId, creatorUserId: userId, name: "Mira" } as typeof characters.$inferInsert);

const hits = { ours: { at1: 0, at5: 0 }, recency: { at1: 0, at5: 0 } };
const perGap: { gap: number; at1: number; at5: number; recencyAt5: number }[] = [];
for (const gap of GAPS) {
  const row = { gap, at1: 0, at5: 0, recencyAt5: 0 };
  for (let q = 0; q < QUESTIONS_PER_GAP; q++) {
    const conversationId = randomUUID();
    await db.insert(conversations).values({ id: conversationId, userId, characterId });
    const planted = pick(TEMPLATES)();
    const start = Date.now() - (gap + 1) * 60_000;
    // The fact first, then `gap` distractors, each a minute newer (the order memories are written in).
    const rows = [planted.fact, ...Array.from({ length: gap }, () => pick(TEMPLATES)().fact)].map(
      (content, i) => ({
        conversationId,
        content,
        createdAt: new Date(start + i * 60_000),
      }),
    );
    const inserted = await db
      .insert(memories)
      .values(rows)
      .returning({ id: memories.id, content: memories.content });
    const target = inserted[0]?.id;
    // A distractor can say the very same thing; any memory with the planted text counts.
    const good = new Set(inserted.filter((m) => m.content === planted.fact).map((m) => m.id));
    const ranked = await rankMemories(db, conversationId, `Good evening.\n${planted.question}`);
    const at = ranked.findIndex((m) => good.has(m.id));
    const recencyAt = gap; // newest first: the fact is the oldest of gap + 1
    if (at === 0) row.at1++;
    if (at >= 0 && at < 5) row.at5++;
    if (recencyAt < 5) row.recencyAt5++;
    if (target === undefined) throw new Error("nothing inserted");
  }
  hits.ours.at1 += row.at1;
  hits.ours.at5 += row.at5;
  hits.recency.at5 += row.recencyAt5;
  perGap.push(row);
}

// One recall in a long chat: 10,000 messages and 500 memories in one conversation.
const longId = randomUUID();
await db.insert(conversations).values({ id: longId, userId, characterId, messageCount: 10_000 });
for (let i = 0; i < 10_000; i += 1000) {
  await db.insert(messages).values(
    Array.from({ length: 1000 }, (_, j) => ({
      id: randomUUID(),
      conversationId: longId,
      role: (i + j) % 2 ? ("user" as const) : ("bot" as const),
      content: `Message ${i + j} about ${pick(PLACES)} and ${pick(THINGS)}.`,
    })),
  );
}
await db
  .insert(memories)
  .values(Array.from({ length: 500 }, () => ({ conversationId: longId, content: pick(TEMPLATES)().fact })));
const times: number[] = [];
for (let i = 0; i < 30; i++) {
  const question = pick(TEMPLATES)().question;
  const t0 = performance.now();
  await rankMemories(db, longId, question);
  times.push(performance.now() - t0);
}
await test.drop();

const total = GAPS.length * QUESTIONS_PER_GAP;
const pct = (n: number, of = total) => `${((100 * n) / of).toFixed(0)}%`;
const table = [
  "| facts asked N memories later | recall@1 | recall@5 | recency alone @5 |",
  "|---|---|---|---|",
  ...perGap.map(
    (r) =>
      `| N = ${r.gap} | ${pct(r.at1, QUESTIONS_PER_GAP)} | ${pct(r.at5, QUESTIONS_PER_GAP)} | ${pct(r.recencyAt5, QUESTIONS_PER_GAP)} |`,
  ),
  `| all ${total} | **${pct(hits.ours.at1)}** | **${pct(hits.ours.at5)}** | ${pct(hits.recency.at5)} |`,
].join("\n");

const markdown = `## Memories: recalling a fact planted long ago

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, embedded PGlite. A generated set (seeded, the same every run): for each question a conversation whose oldest memory is the planted fact ("Sam keeps bees at the old mill.") followed by N distractor memories from the same templates with other names, places, things and animals; the question shares only the fact's specific words ("Should we check on the bees today?"). A hit is a memory with the planted text at rank 1 or in the first 5 unpinned memories recalled. Rerun: \`npx tsx bench/memories.ts\`.

${table}

Keywords only: no embedding backend is built yet, so the keywords + vectors row the issue asks for is still to come, as is the share of the bundled model's replies that use the recalled fact. One recall in a conversation of 10,000 messages and 500 memories: median ${ms(median(times))} (the query reads only the conversation's memories, through its index and the full-text GIN index, so the messages' number does not enter). Limits: the vocabulary is small (12 names, 6 places, things and animals), so at N = 499 some 25 distractors name the very word asked about, and among equal keyword matches the newer memory ranks first: the planted fact, the oldest, then loses to them (that is the intended tie-break: the newest mention is the likelier truth). The questions reuse the fact's words by construction; a paraphrase (bees → hives) is found only by recency or, later, by vectors.`;

writeSection("memories", markdown);
console.log(markdown);
