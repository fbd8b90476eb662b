// Hearth under an overload: replies arrive faster than the model serves them, and members arrive
// faster than the waiting room admits them. Measures the wait of each plan, and that nobody starves.
// Run: npx tsx bench/overload.ts   (writes its section of docs/PERFORMANCE.md)
import { sql } from "drizzle-orm";
import { type Person, personAs, type Role } from "../apps/server/src/features/characters/test-support.ts";
import { insertTestCharacter, readSse } from "../apps/server/test/chat.ts";
import { startTestHearth } from "../apps/server/test/harness.ts";
import type { ConversationCreated, QueueState } from "../packages/contract/src/index.ts";
import { machine, median, writeSection } from "./report.ts";
import { startSteadyServer } from "./steady-openai-server.ts";

const TIERS: { role: Role; label: string }[] = [
  { role: "premium", label: "I'm All In (priority queue)" },
  { role: "basic", label: "subscriber" },
  { role: "free", label: "free" },
  { role: "guest", label: "guest" },
];
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const s = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;

// ---- 1. The line for the model -------------------------------------------------------------
const SLOTS = 2;
const TOKENS = 10;
const INTERVAL_MS = 20;
const ARRIVALS_PER_S = Number(process.env.HEARTH_BENCH_ARRIVALS ?? 14);
const SECONDS = Number(process.env.HEARTH_BENCH_SECONDS ?? 30);
const MEMBERS_PER_TIER = 40;

const steady = await startSteadyServer({ intervalMs: INTERVAL_MS, tokens: TOKENS });
const h = await startTestHearth({
  env: {
    LLM_BASE_URL: steady.url,
    LLM_MODEL: "steady",
    LLM_SEQUENCES: String(SLOTS),
    HEARTH_DAILY_LIMIT_FREE: "0",
    HEARTH_DAILY_LIMIT_GUEST: "0",
    HEARTH_RATE_LIMIT: "0",
    HEARTH_GUEST_SIGNINS_PER_DAY: "0",
  },
});
const base = await h.listen();
const creator = await personAs(h, "free", "Creator");
const members = new Map<Role, Person[]>();
for (const tier of TIERS) {
  members.set(
    tier.role,
    await Promise.all(Array.from({ length: MEMBERS_PER_TIER }, () => personAs(h, tier.role))),
  );
}
const post = (who: Person, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { cookie: who.cookie as string, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

// Chats are opened before the clock starts (the bench measures waiting for the model), each with
// its own bot: a member's new chat with a bot they have an unused chat with is that chat.
const total = ARRIVALS_PER_S * SECONDS;
const plan = await Promise.all(
  Array.from({ length: total }, async (_, i) => {
    const tier = TIERS[i % TIERS.length] as (typeof TIERS)[number];
    const who = (members.get(tier.role) as Person[])[
      Math.floor(i / TIERS.length) % MEMBERS_PER_TIER
    ] as Person;
    const created = (await (
      await post(who, "/api/conversations", {
        character_id: (await insertTestCharacter(h.database.db, creator.id as string)).id,
      })
    ).json()) as ConversationCreated;
    return { tier, who, conversationId: created.conversation.id, at: (i * 1000) / ARRIVALS_PER_S };
  }),
);

// The model's capacity, measured: one reply alone, end to end.
const began = performance.now();
const waits = await Promise.all(
  plan.map(async (p) => {
    await new Promise((resolve) => setTimeout(resolve, p.at));
    const sent = performance.now();
    let first = 0;
    const res = await post(p.who, "/api/generate", {
      conversation_id: p.conversationId,
      type: "text",
      action: "send",
      content: "Go",
    });
    if (res.status !== 200) {
      if (process.env.HEARTH_BENCH_DEBUG) console.log(p.tier.label, res.status, await res.text());
      return { tier: p.tier.label, ok: false, wait: 0 };
    }
    const events = await readSse(res, (m) => {
      if (m.event.type === "token" && !first) first = performance.now();
      return false;
    });
    const ok = events.at(-1)?.event.type === "done";
    return { tier: p.tier.label, ok, wait: first - sent };
  }),
);
const elapsed = performance.now() - began;
await h.stop();
steady.server.close();
const served = waits.filter((w) => w.ok).length;
const lineRows = TIERS.map(({ label }) => {
  const mine = waits.filter((w) => w.tier === label);
  const ok = mine.filter((w) => w.ok).map((w) => w.wait);
  return `| ${label} | ${ok.length}/${mine.length} | ${s(median(ok))} | ${s(percentile(ok, 95))} | ${s(Math.max(...ok))} |`;
});
console.log(lineRows.join("\n"));

// ---- 2. The waiting room, minute by minute -----------------------------------------------
// Admission is the real SQL of POST /api/queue (joining the line, or keeping one's place); time is compressed: each step every row's clock
// (entered, granted, last seen) moves back one minute, which is what a minute passing means to it.
const CAPACITY = 20;
const STEPS = Number(process.env.HEARTH_BENCH_ROOM_MINUTES ?? 90);
const ARRIVING_PER_MINUTE = 6; // above what 20 slots of ~5-minute sessions free (4 a minute)
const SESSION_MINUTES = 5;
const room = await startTestHearth({
  env: {
    HEARTH_WAITING_ROOM_CAPACITY: String(CAPACITY),
    HEARTH_GUEST_SIGNINS_PER_DAY: "0",
    HEARTH_RATE_LIMIT: "0",
  },
});
const db = room.database.db;
const ask = async (who: Person) =>
  (
    await room.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: {
        cookie: who.cookie as string,
        origin: "http://localhost:3000",
        "content-type": "application/json",
      },
      payload: "{}",
    })
  ).json<QueueState>();
interface Visitor {
  who: Person;
  tier: string;
  arrived: number;
  admitted: number | null;
}
const visitors: Visitor[] = [];
let arrivals = 0;
for (let minute = 0; minute < STEPS; minute++) {
  for (let i = 0; i < ARRIVING_PER_MINUTE; i++) {
    const tier = TIERS[(arrivals++ + minute) % TIERS.length] as (typeof TIERS)[number];
    // Paid plans with skip_waiting_room never wait; in the room they stand for members whose
    // permissions are limited, which keeps their plan's place (waiting-room/policy.ts).
    const who = await personAs(room, tier.role === "guest" || tier.role === "free" ? tier.role : "limited");
    if (tier.role !== "guest" && tier.role !== "free")
      await db.execute(sql`update users set role = ${tier.role}, status = 'active' where id = ${who.id}`);
    visitors.push({ who, tier: tier.label, arrived: minute, admitted: null });
  }
  for (const v of visitors) {
    if (v.admitted !== null) continue;
    if ((await ask(v.who)).status === "access") v.admitted = minute;
  }
  // Members whose session is over stop chatting: their access lapses after 20 idle minutes, so it
  // is aged past that at once (the idle wait itself is the same for every plan).
  for (const v of visitors) {
    if (v.admitted !== null && minute - v.admitted === SESSION_MINUTES) {
      await db.execute(
        sql`update waiting_room set last_seen_at = last_seen_at - interval '21 minutes' where user_id = ${v.who.id}`,
      );
    }
  }
  await db.execute(sql`update waiting_room set entered_at = entered_at - interval '1 minute',
    granted_at = granted_at - interval '1 minute', last_seen_at = last_seen_at - interval '1 minute'`);
}
await room.stop();
const roomRows = TIERS.map(({ label }) => {
  const mine = visitors.filter((v) => v.tier === label && v.arrived < STEPS - 30);
  const admitted = mine.filter((v) => v.admitted !== null).map((v) => (v.admitted as number) - v.arrived);
  return `| ${label} | ${admitted.length}/${mine.length} | ${median(admitted)} min | ${percentile(admitted, 95)} min | ${Math.max(...admitted)} min |`;
});
console.log(roomRows.join("\n"));

writeSection(
  "overload",
  `## Overload: the line for the model and the waiting room

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. Rerun: \`npx tsx bench/overload.ts\`.

**The line for the model.** One Hearth process (PGlite) in front of a stand-in model server with ${SLOTS} slots, each reply ${TOKENS} tokens at one every ${INTERVAL_MS} ms. Replies arrive at ${ARRIVALS_PER_S} a second for ${SECONDS} s, the four plans in turn (${MEMBERS_PER_TIER} members each, each reply in its own chat), above what ${SLOTS} slots serve, so a line builds. "Wait" is from the request to the reply's first token. Plans go first by their head start (I'm All In 0 s, subscribers 10 s, free 30 s, guests 60 s, \`chats/generation/scheduling.ts\`); a reply that has waited longer than the gap goes before newer ones of any plan. ${served}/${waits.length} replies were served in ${s(elapsed)}.

| plan | served | wait (median) | p95 | longest |
|---|---|---|---|---|
${lineRows.join("\n")}

**The waiting room.** Capacity ${CAPACITY}; ${ARRIVING_PER_MINUTE} members arrive a minute (plans in turn) while sessions of ${SESSION_MINUTES} minutes free about ${CAPACITY / SESSION_MINUTES} slots a minute, for ${STEPS} minutes. Admission is the real \`GET /api/queue\` on PGlite; time is compressed (each step ages every row by a minute, and an ended session's access is aged past the 20-minute idle limit, which every plan waits alike). Paid plans normally skip the room; here they stand for limited accounts, which keep their plan's place. Head starts: I'm All In 0, other plans 5 min, free 10 min, guests 15 min (\`waiting-room/policy.ts\`). Members arriving in the last 30 minutes are left out of the figures (their wait is not over). The line grows by about 2 members a minute for the whole run, so once waits pass the 15-minute spread of head starts, arrival order decides and every plan's wait grows with the backlog; plans then differ by about their head start, and nobody is passed over indefinitely. An overload that lasts is the room's capacity to raise, not an order to tune.

| plan | admitted | wait (median) | p95 | longest |
|---|---|---|---|---|
${roomRows.join("\n")}`,
);
process.exit(0);
