// How many replies a second the line for the model can hand out: claims (one transaction under
// one advisory lock, decision 016) by several workers at once, on PGlite and PostgreSQL.
// Run: npx tsx bench/claims.ts   (writes its section of docs/PERFORMANCE.md)
import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { users } from "../apps/server/src/features/accounts/schema.ts";
import { claimGenerations } from "../apps/server/src/features/chats/generation/scheduler-queries.ts";
import { type Capacity, PLACES } from "../apps/server/src/features/chats/generation/scheduling.ts";
import { conversations, generations } from "../apps/server/src/features/chats/schema.ts";
import { insertTestCharacter } from "../apps/server/test/chat.ts";
import { createTestDatabase, drivers } from "../apps/server/test/databases.ts";
import { machine, writeSection } from "./report.ts";

const REPLIES = Number(process.env.HEARTH_BENCH_REPLIES ?? 2000);
const WORKERS = 4;
/** Up to this many replies a claim hands out (the dispatcher asks for its free slots, at most 64). */
const BATCH = 16;
const MEMBERS = 500;
const capacity: Capacity = { key: "server:http://gpu", limit: 64, perProcess: false };

const rows: string[] = [];
for (const driver of drivers) {
  const t = await createTestDatabase(driver);
  const db = t.database.db;
  const members = Array.from({ length: MEMBERS }, () => randomUUID());
  await db.insert(users).values(members.map((id) => ({ id, name: "M", email: `${id}@example.com` })));
  const character = await insertTestCharacter(db, members[0] as string);
  const places = Object.values(PLACES);
  for (let i = 0; i < REPLIES; i += 500) {
    const batch = Array.from({ length: Math.min(500, REPLIES - i) }, (_, j) => {
      const n = i + j;
      const place = places[n % places.length] as (typeof places)[number];
      return {
        conversation: { id: randomUUID(), userId: members[n % MEMBERS] as string, characterId: character.id },
        place,
      };
    });
    await db.insert(conversations).values(batch.map((b) => b.conversation));
    await db.insert(generations).values(
      batch.map((b, j) => ({
        id: randomUUID(),
        conversationId: b.conversation.id,
        userId: b.conversation.userId,
        action: "send" as const,
        turnAt: new Date(Date.now() + (i + j) + b.place.delaySeconds * 1000),
        capacityKey: capacity.key,
        maxRunning: b.place.maxRunning,
      })),
    );
  }
  // Each worker claims a batch, ends it at once (so the slots free), and claims again.
  let claimed = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      for (;;) {
        const batch = await claimGenerations(db, `w${w}`, [capacity], BATCH);
        if (batch.length === 0) return;
        claimed += batch.length;
        await db
          .update(generations)
          .set({ status: "done", finishedAt: new Date() })
          .where(
            inArray(
              generations.id,
              batch.map((g) => g.id),
            ),
          );
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  rows.push(
    `| ${driver === "pglite" ? "PGlite" : "PostgreSQL"} | ${claimed}/${REPLIES} | ${(claimed / seconds).toFixed(0)} | ${((seconds * 1000) / claimed).toFixed(2)} ms |`,
  );
  console.log(rows.at(-1));
  await t.drop();
}

writeSection(
  "claims",
  `## Handing out replies from the line

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}: ${REPLIES} replies wait in line (${MEMBERS} members, the four plans' head starts), ${WORKERS} workers in one process claim them in batches of up to ${BATCH} (\`claimGenerations\`: one statement under the line's advisory lock, decision 016) and end each batch at once, so the figure is the line's own ceiling, with no model. Every process on one database shares this ceiling. Rerun: \`npx tsx bench/claims.ts\`.

| database | claimed | replies started per second | per reply (incl. ending it) |
|---|---|---|---|
${rows.join("\n")}`,
);
process.exit(0);
