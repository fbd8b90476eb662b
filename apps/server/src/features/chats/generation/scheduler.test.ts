import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../../test/chat.ts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../../test/databases.ts";
import { watchStatements } from "../../../../test/statements.ts";
import type { Db } from "../../../db/client.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import { users } from "../../accounts/schema.ts";
import { conversations, generations } from "../schema.ts";
import { LineDispatcher, takeWakeUp } from "./scheduler.ts";
import { cancelQueued, claimGenerations, claimNextGeneration, placeInQueue } from "./scheduler-queries.ts";
import { type Capacity, PLACES, type PlaceInLine } from "./scheduling.ts";

/**
 * The line for the model (issue 15 item 2) on both databases: plans in order with ageing, one
 * member's limit, a capacity's slots per process or shared, and a cancelled reply's slot.
 */
describe.each(drivers)("the line for the model on %s", (driver) => {
  let t: TestDatabase;
  let db: Db;
  let characterId: string;
  const REMOTE: Capacity = { key: "server:http://gpu", limit: 1, perProcess: false };
  const LOCAL: Capacity = { key: "embedded:/m.gguf", limit: 1, perProcess: true };

  beforeAll(async () => {
    t = await createTestDatabase(driver);
    db = t.database.db;
    const creator = await member();
    characterId = (await insertTestCharacter(db, creator)).id;
  });
  afterAll(async () => t.drop());

  async function member(): Promise<string> {
    const id = randomUUID();
    await db.insert(users).values({ id, name: "M", email: `${id}@example.com` });
    return id;
  }

  /** A reply queued `agoSeconds` ago by a member of plan `place` for `capacity`. */
  async function queue(userId: string, place: PlaceInLine, capacity: Capacity, agoSeconds = 0) {
    const conversationId = randomUUID();
    await db.insert(conversations).values({ id: conversationId, userId, characterId });
    const id = randomUUID();
    const arrived = Date.now() - agoSeconds * 1000;
    await db.insert(generations).values({
      id,
      conversationId,
      userId,
      action: "send",
      createdAt: new Date(arrived),
      turnAt: new Date(arrived + place.delaySeconds * 1000),
      capacityKey: capacity.key,
      maxRunning: place.maxRunning,
    });
    return id;
  }

  async function finish(id: string) {
    await db
      .update(generations)
      .set({ status: "done", finishedAt: new Date() })
      .where(eq(generations.id, id));
  }

  it("serves I'm All In, then subscribers, then free, then guests, one slot at a time", async () => {
    const guest = await queue(await member(), PLACES.guest, REMOTE);
    const free = await queue(await member(), PLACES.free, REMOTE);
    const subscriber = await queue(await member(), PLACES.subscriber, REMOTE);
    const priority = await queue(await member(), PLACES.priority, REMOTE);
    expect([await placeInQueue(db, priority), await placeInQueue(db, guest)]).toEqual([1, 4]);
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      const claimed = await claimNextGeneration(db, "w1", [REMOTE]);
      expect(claimed).not.toBeNull();
      // The one slot is taken until the reply ends.
      expect(await claimNextGeneration(db, "w2", [REMOTE])).toBeNull();
      order.push(claimed?.id ?? "");
      expect(await placeInQueue(db, claimed?.id ?? "")).toBe(0);
      await finish(claimed?.id ?? "");
    }
    expect(order).toEqual([priority, subscriber, free, guest]);
  });

  it("ages: a guest who has waited longer than the gap goes before a newer I'm All In reply", async () => {
    const guest = await queue(await member(), PLACES.guest, REMOTE, PLACES.guest.delaySeconds + 5);
    const priority = await queue(await member(), PLACES.priority, REMOTE);
    const first = await claimNextGeneration(db, "w1", [REMOTE]);
    expect(first?.id).toBe(guest);
    await finish(guest);
    expect((await claimNextGeneration(db, "w1", [REMOTE]))?.id).toBe(priority);
    await finish(priority);
  });

  it("runs no more of one member's replies at once than their plan allows; others go ahead", async () => {
    const busy = await member();
    const roomy = { key: "server:http://big", limit: 10, perProcess: false };
    const a = await queue(busy, PLACES.free, roomy, 3);
    const b = await queue(busy, PLACES.free, roomy, 2);
    const other = await queue(await member(), PLACES.free, roomy, 1);
    expect((await claimNextGeneration(db, "w1", [roomy]))?.id).toBe(a);
    // b is ahead of `other` in line, but its member already has a reply running.
    expect((await claimNextGeneration(db, "w1", [roomy]))?.id).toBe(other);
    expect(await claimNextGeneration(db, "w1", [roomy])).toBeNull();
    await finish(a);
    expect((await claimNextGeneration(db, "w1", [roomy]))?.id).toBe(b);
    await finish(b);
    await finish(other);
  });

  it("counts an embedded model's slots per process and a remote server's across processes", async () => {
    const local = [
      await queue(await member(), PLACES.free, LOCAL),
      await queue(await member(), PLACES.free, LOCAL),
    ];
    const one = await claimNextGeneration(db, "w1", [LOCAL]);
    expect(await claimNextGeneration(db, "w1", [LOCAL])).toBeNull();
    // Another process has its own copy of the model, so its own free sequence.
    const two = await claimNextGeneration(db, "w2", [LOCAL]);
    expect([one?.id, two?.id].sort()).toEqual([...local].sort());
    expect([one?.workerId, two?.workerId]).toEqual(["w1", "w2"]);

    const remote = [
      await queue(await member(), PLACES.free, REMOTE),
      await queue(await member(), PLACES.free, REMOTE),
    ];
    expect((await claimNextGeneration(db, "w1", [REMOTE]))?.id).toBe(remote[0]);
    expect(await claimNextGeneration(db, "w2", [REMOTE])).toBeNull();
    // A process that cannot serve a capacity takes nothing from its line.
    expect(await claimNextGeneration(db, "w3", [LOCAL])).toBeNull();
    for (const id of [...local, remote[0] as string]) await finish(id);
    expect((await claimNextGeneration(db, "w2", [REMOTE]))?.id).toBe(remote[1]);
    await finish(remote[1] as string);
  });

  it("a reply cancelled while in line leaves it at once, and one already running cannot be cancelled so", async () => {
    const first = await queue(await member(), PLACES.free, REMOTE, 2);
    const second = await queue(await member(), PLACES.free, REMOTE, 1);
    expect(await placeInQueue(db, second)).toBe(2);
    expect((await cancelQueued(db, first))?.status).toBe("stopped");
    expect(await placeInQueue(db, second)).toBe(1);
    const running = await claimNextGeneration(db, "w1", [REMOTE]);
    expect(running?.id).toBe(second);
    expect(await cancelQueued(db, second)).toBeNull();
    await finish(second);
  });

  it("a batch takes the front of the line within the capacity's slots and each member's limit", async () => {
    const three = { key: "server:http://batch", limit: 3, perProcess: false };
    const twice = await member();
    const first = await queue(twice, PLACES.free, three, 9);
    const second = await queue(twice, PLACES.free, three, 8);
    const others = [
      await queue(await member(), PLACES.free, three, 7),
      await queue(await member(), PLACES.free, three, 6),
      await queue(await member(), PLACES.free, three, 5),
    ];
    const batch = await claimGenerations(db, "w1", [three], 10);
    // In line order; the member's second reply waits for their first, the last for a slot.
    expect(batch.map((g) => g.id)).toEqual([first, others[0], others[1]]);
    expect(await claimGenerations(db, "w2", [three], 10)).toEqual([]);
    await finish(first);
    expect((await claimGenerations(db, "w2", [three], 10)).map((g) => g.id)).toEqual([second]);
    for (const id of [second, ...others.slice(0, 2)]) await finish(id);
    expect((await claimGenerations(db, "w1", [three], 10)).map((g) => g.id)).toEqual([others[2]]);
    await finish(others[2] as string);
  });

  it("a reply held back by its member's limit does not hold back others for the last slot", async () => {
    const one = { key: "server:http://one", limit: 2, perProcess: false };
    const busy = await member();
    const running = await queue(busy, PLACES.free, one, 9);
    expect((await claimGenerations(db, "w1", [one], 5)).map((g) => g.id)).toEqual([running]);
    await queue(busy, PLACES.free, one, 8);
    const other = await queue(await member(), PLACES.free, one, 1);
    expect((await claimGenerations(db, "w1", [one], 5)).map((g) => g.id)).toEqual([other]);
    await db.update(generations).set({ status: "done" }).where(eq(generations.capacityKey, one.key));
  });

  it("many workers claiming at once never exceed a capacity's slots", async () => {
    const shared = { key: "server:http://three", limit: 3, perProcess: false };
    const ids = await Promise.all(
      Array.from({ length: 8 }, async () => queue(await member(), PLACES.free, shared)),
    );
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimNextGeneration(db, `w${i}`, [shared])),
    );
    const taken = claims.filter((c) => c !== null);
    expect(taken).toHaveLength(3);
    for (const id of ids) await finish(id);
  });

  it("a process's queue wake-up for a reply it started claims nothing; any other wake-up does", async () => {
    const own = { key: "server:http://own", limit: 4, perProcess: false };
    // Claim statements as the line sends them to the database.
    const claims = watchStatements(db, (text) => text.includes("hearth_claim_generations"));
    const started: string[] = [];
    let finishRun = () => {};
    const running = new Promise<void>((resolve) => {
      finishRun = resolve;
    });
    const line = new LineDispatcher({
      db,
      workerId: "w-wake",
      capacities: () => [own],
      concurrency: 4,
      run: async (generation) => {
        started.push(generation.id);
        await running;
      },
      log: (error) => {
        throw error;
      },
    });
    const requeued: unknown[] = [];
    const queueStub = { enqueue: async (_name: string, data: unknown) => requeued.push(data) };
    const take = takeWakeUp(line, queueStub as unknown as JobQueue, "generate");
    try {
      const id = await queue(await member(), PLACES.free, own);
      // The accept's own pass takes it here.
      await take({ wake: true });
      expect(started).toEqual([id]);
      expect(line.took(id)).toBe(true);
      const before = claims.seen.length;
      // The wake-up every accept also sends to the queue, for that reply: nothing to ask.
      await take({ generationId: id });
      expect(claims.seen).toHaveLength(before);
      // A wake-up for a reply another process accepted: one claim pass here.
      await take({ generationId: randomUUID() });
      expect(claims.seen).toHaveLength(before + 1);
      expect(requeued).toEqual([]);
    } finally {
      claims.stop();
      finishRun();
      await line.drain(1000);
      await db.update(generations).set({ status: "done" }).where(eq(generations.capacityKey, own.key));
    }
  });

  it("hands the accept's context to the worker only when the accept's own pass takes the reply", async () => {
    const one = { key: "server:http://handoff", limit: 1, perProcess: false };
    const given: [string, unknown][] = [];
    const ends = new Map<string, () => void>();
    const line = new LineDispatcher<string>({
      db,
      workerId: "w-handoff",
      capacities: () => [one],
      concurrency: 2,
      run: (generation, _interrupt, handoff) => {
        given.push([generation.id, handoff]);
        return new Promise<void>((resolve) => ends.set(generation.id, resolve));
      },
      log: (error) => {
        throw error;
      },
    });
    try {
      const first = await queue(await member(), PLACES.free, one);
      expect(await line.claimHere(first, "first's context")).toBe(true);
      // The capacity's one slot is taken: this pass leaves the second in line.
      const second = await queue(await member(), PLACES.free, one);
      expect(await line.claimHere(second, "second's context")).toBe(false);
      // The first's end frees the slot; the pass that takes the second has nothing handed over
      // (the reply may have waited long, so its worker reads afresh).
      await finish(first);
      ends.get(first)?.();
      await expect.poll(() => given.length).toBe(2);
      expect(given).toEqual([
        [first, "first's context"],
        [second, undefined],
      ]);
      ends.get(second)?.();
    } finally {
      for (const end of ends.values()) end();
      await line.drain(1000);
      await db.update(generations).set({ status: "done" }).where(eq(generations.capacityKey, one.key));
    }
  });

  it("looks for the next reply when one ends, unless none waited in line as it ended", async () => {
    const own = { key: "server:http://ends", limit: 2, perProcess: false };
    const claims = watchStatements(db, (text) => text.includes("hearth_claim_generations"));
    const ends: ((end: { lineEmpty: boolean }) => void)[] = [];
    const line = new LineDispatcher({
      db,
      workerId: "w-ends",
      capacities: () => [own],
      concurrency: 2,
      run: () => new Promise((resolve) => ends.push(resolve)),
      log: (error) => {
        throw error;
      },
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      for (const _ of [1, 2]) {
        const id = await queue(await member(), PLACES.free, own);
        expect(await line.claimHere(id)).toBe(true);
        await finish(id);
      }
      const before = claims.seen.length;
      // Nobody waited as the first ended: no claim pass for it.
      ends[0]?.({ lineEmpty: true });
      await turn();
      await turn();
      expect(claims.seen).toHaveLength(before);
      // Someone did as the second ended: one.
      ends[1]?.({ lineEmpty: false });
      await expect.poll(() => claims.seen.length).toBe(before + 1);
    } finally {
      claims.stop();
      for (const end of ends) end({ lineEmpty: true });
      await line.drain(1000);
    }
  });
});
