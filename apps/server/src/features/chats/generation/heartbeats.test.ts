import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestMember } from "../../../../test/chat.ts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../../test/databases.ts";
import type { Db } from "../../../db/client.ts";
import { conversations, generations } from "../schema.ts";
import { HeartbeatWriter } from "./heartbeats.ts";

/** One statement beats for every reply a process runs; a reply that ended stops beating. */
describe.each(drivers)("a process's heartbeats on %s", (driver) => {
  let t: TestDatabase;
  let db: Db;
  let conversationId: string;
  let userId: string;
  const long = new Date("2026-01-01T00:00:00Z");

  beforeAll(async () => {
    t = await createTestDatabase(driver);
    db = t.database.db;
    const member = await insertTestMember(db);
    userId = member.userId;
    const { characterId } = member;
    conversationId = randomUUID();
    await db.insert(conversations).values({ id: conversationId, userId, characterId });
  });
  afterAll(async () => t.drop());

  async function running(n: number): Promise<string[]> {
    const ids = Array.from({ length: n }, () => randomUUID());
    await db.insert(generations).values(
      ids.map((id) => ({
        id,
        conversationId,
        userId,
        action: "send" as const,
        status: "running" as const,
        heartbeatAt: long,
      })),
    );
    return ids;
  }
  const beatsOf = async (ids: string[]) =>
    new Map(
      (
        await db
          .select({ id: generations.id, at: generations.heartbeatAt })
          .from(generations)
          .where(inArray(generations.id, ids))
      ).map((r) => [r.id, r.at.getTime()]),
    );

  it("writes a fresh beat for every running reply, and none for one that stopped", async () => {
    const writer = new HeartbeatWriter(db, 60_000);
    const [a, b, c] = (await running(3)) as [string, string, string];
    writer.start(a);
    writer.start(b);
    writer.start(c);
    writer.stop(b);
    const before = Date.now();
    await writer.beat();
    const beats = await beatsOf([a, b, c]);
    expect(beats.get(a)).toBeGreaterThanOrEqual(before - 1000);
    expect(beats.get(c)).toBeGreaterThanOrEqual(before - 1000);
    expect(beats.get(b)).toBe(long.getTime());
    writer.stop(a);
    writer.stop(c);
  });

  it("beats on its own every interval while a reply runs, and stops when none does", async () => {
    const writer = new HeartbeatWriter(db, 50);
    const [a] = (await running(1)) as [string];
    const beaten = new Promise<void>((resolve) => {
      const check = setInterval(async () => {
        if ((await beatsOf([a])).get(a) !== long.getTime()) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    writer.start(a);
    await beaten;
    writer.stop(a);
    expect((writer as unknown as { timer: unknown }).timer).toBeNull();
  });
});
