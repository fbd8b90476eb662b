// The accept's context statement (issue 15 item 4) on a card with large extras (extensions,
// creator notes, other greetings: common on real-world cards, used by no reply), this checkout's
// against another's (HEARTH_BENCH_BEFORE, a checkout whose statement read the character's whole
// row): statement against statement, each on a database of its own, calls alternated, median of
// HEARTH_BENCH_REPEATS each.
// Run: HEARTH_BENCH_BEFORE=/path/to/checkout npx tsx bench/accept-context.ts
//   (HEARTH_BENCH_DRIVERS=pglite,postgres; HEARTH_BENCH_EXTRA_KB=40)
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Db } from "../apps/server/src/db/client.ts";
import { users } from "../apps/server/src/features/accounts/schema.ts";
import { characters } from "../apps/server/src/features/characters/schema.ts";
import { conversations } from "../apps/server/src/features/chats/schema.ts";
import { createTestDatabase, type Driver } from "../apps/server/test/databases.ts";
import { median } from "./report.ts";

const DRIVERS = (process.env.HEARTH_BENCH_DRIVERS ?? "pglite,postgres").split(",") as Driver[];
const REPEATS = Number(process.env.HEARTH_BENCH_REPEATS ?? 400);
const EXTRA = "x".repeat(Number(process.env.HEARTH_BENCH_EXTRA_KB ?? 40) * 256);
const BEFORE = process.env.HEARTH_BENCH_BEFORE;
if (!BEFORE) throw new Error("HEARTH_BENCH_BEFORE: a checkout of the code to compare with.");
type ContextRead = (db: Db, conversationId: string) => Promise<unknown>;
const modulePath = "apps/server/src/features/chats/generation/accept-queries.ts";
const reads: Record<"before" | "after", ContextRead> = {
  before: (await import(path.join(path.resolve(BEFORE), modulePath))).acceptContext,
  after: (await import(path.join(import.meta.dirname, "..", modulePath))).acceptContext,
};

/** A database with one chat with a card carrying EXTRA four times; its conversation's id. */
async function chatWithExtras(driver: Driver) {
  const t = await createTestDatabase(driver);
  const { db } = t.database;
  const owner = randomUUID();
  await db.insert(users).values({ id: owner, name: "Owner", email: `${owner}@example.com` });
  const [card] = await db
    .insert(characters)
    .values({
      creatorUserId: owner,
      name: "Extras",
      persona: "A persona. ".repeat(200),
      scenario: "A scenario.",
      dialogue: "<START>",
      extensions: { depth_prompt: { prompt: EXTRA } },
      creatorNotes: EXTRA,
      alternateGreetings: [EXTRA, EXTRA],
    })
    .returning();
  const conversationId = randomUUID();
  await db
    .insert(conversations)
    .values({ id: conversationId, userId: owner, characterId: card?.id as string });
  return { t, db, conversationId };
}

for (const driver of DRIVERS) {
  // A database each: both checkouts name their prepared statement alike.
  const dbs = { before: await chatWithExtras(driver), after: await chatWithExtras(driver) };
  const times: Record<"before" | "after", number[]> = { before: [], after: [] };
  for (let i = 0; i < 50 + REPEATS; i++) {
    for (const which of ["before", "after"] as const) {
      const { db, conversationId } = dbs[which];
      const t0 = performance.now();
      await reads[which](db, conversationId);
      if (i >= 50) times[which].push(performance.now() - t0);
    }
  }
  const [b, a] = [median(times.before), median(times.after)];
  console.log(
    `${driver}: a card with ${Math.round((EXTRA.length * 4) / 1024)} KB of extras, median of ${REPEATS}: before ${b.toFixed(3)} ms, after ${a.toFixed(3)} ms (${(a / b).toFixed(2)})`,
  );
  await Promise.all([dbs.before.t.drop(), dbs.after.t.drop()]);
}
process.exit(0);
