import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestMember } from "../../../../test/chat.ts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../../test/databases.ts";
import type { Db } from "../../../db/client.ts";
import { characterMonthlyMessages, characters } from "../../characters/schema.ts";
import { appendMessage } from "../queries.ts";
import { conversations, generations } from "../schema.ts";
import { finishedReplyShapesBuilt, storeFinishedReply } from "./finished-reply-queries.ts";

/**
 * A reply's end, one prepared statement per shape (built once, then only its values change), on
 * both databases: the reply, the chat, the generation, the prompt's record and the character's
 * counts as the statement built on every call stored them.
 */
describe.each(drivers)("storing a finished reply (%s)", (driver) => {
  let t: TestDatabase;
  let db: Db;
  let userId: string;
  let characterId: string;

  beforeAll(async () => {
    t = await createTestDatabase(driver);
    db = t.database.db;
    ({ userId, characterId } = await insertTestMember(db));
  });
  afterAll(async () => t.drop());

  /** A chat whose reply is streaming under a running generation (or, `queued`, waits in line). */
  async function streamingReply(status: "running" | "queued" = "running") {
    const conversationId = randomUUID();
    await db.insert(conversations).values({ id: conversationId, userId, characterId });
    const reply = await appendMessage(db, { conversationId, role: "bot", content: "", state: "streaming" });
    const generationId = randomUUID();
    await db.insert(generations).values({
      id: generationId,
      conversationId,
      userId,
      action: "send",
      status,
      messageId: reply.id,
      turnAt: new Date(),
      capacityKey: "test",
      maxRunning: 1,
    });
    await db
      .update(conversations)
      .set({ activeGenerationId: generationId })
      .where(eq(conversations.id, conversationId));
    return { conversationId, generationId, messageId: reply.id };
  }

  const count = async () =>
    (await db.select({ n: characters.numMessages }).from(characters).where(eq(characters.id, characterId)))[0]
      ?.n;

  it("stores each reply with its values, building each shape's statement once", async () => {
    const before = finishedReplyShapesBuilt(db);
    const messagesBefore = await count();
    for (const [i, text] of ["First reply.", "Second reply, longer."].entries()) {
      const r = await streamingReply();
      const report = { persona_name: "R", history_messages: i } as never;
      const { stored, ended } = await storeFinishedReply(db, {
        ...r,
        status: "done",
        reply: { messageId: r.messageId, content: text, state: "complete" },
        contextStartMessageId: null,
        characterId,
        prompt: { trims: i === 0 ? [] : [{ kind: "history" } as never], report },
      });
      expect(ended).toBe(true);
      expect(stored).toMatchObject({
        id: r.messageId,
        content: text,
        state: "complete",
        alternatives: [text],
      });
      const [generation] = await db
        .select({
          status: generations.status,
          finishedAt: generations.finishedAt,
          trimsIsNull: sql<boolean>`${generations.promptTrims} is null`,
          trims: generations.promptTrims,
          report: generations.promptReport,
        })
        .from(generations)
        .where(eq(generations.id, r.generationId));
      expect(generation?.status).toBe("done");
      expect(generation?.finishedAt).toBeInstanceOf(Date);
      // No trims is SQL's null, not a JSON null.
      expect(generation?.trimsIsNull).toBe(i === 0);
      if (i === 1) expect(generation?.trims).toEqual([{ kind: "history" }]);
      expect(generation?.report).toEqual(report);
      const [chat] = await db.select().from(conversations).where(eq(conversations.id, r.conversationId));
      expect(chat).toMatchObject({
        activeGenerationId: null,
        lastMessagePreview: text,
        lastMessageRole: "bot",
      });
      expect(chat?.lastMessageAt).toBeInstanceOf(Date);
    }
    expect(await count()).toBe((messagesBefore ?? 0) + 2);
    const [month] = await db
      .select({ messages: characterMonthlyMessages.messages })
      .from(characterMonthlyMessages)
      .where(
        and(
          eq(characterMonthlyMessages.characterId, characterId),
          eq(characterMonthlyMessages.month, new Date().toISOString().slice(0, 7)),
        ),
      );
    expect(month?.messages).toBe(2);
    // Two replies of one shape: one statement built.
    expect(finishedReplyShapesBuilt(db)).toBe(before + 1);
  });

  it("ends a generation without a reply, and tells when upkeep had already ended it", async () => {
    const r = await streamingReply();
    const first = await storeFinishedReply(db, { ...r, status: "stopped", reply: null });
    expect(first).toEqual({ stored: null, ended: true, lineWaiting: false });
    const again = await storeFinishedReply(db, { ...r, status: "stopped", reply: null });
    expect(again).toEqual({ stored: null, ended: false, lineWaiting: false });
    const [chat] = await db.select().from(conversations).where(eq(conversations.id, r.conversationId));
    // Without a reply the chat's preview and context start are left as they were.
    expect(chat).toMatchObject({ activeGenerationId: null, lastMessagePreview: "" });
  });

  it("tells whether any reply waited in line as it ended (then the line looks for it)", async () => {
    const finish = async () => {
      const r = await streamingReply();
      return storeFinishedReply(db, {
        ...r,
        status: "done",
        reply: { messageId: r.messageId, content: "Done.", state: "complete" },
      });
    };
    expect((await finish()).lineWaiting).toBe(false);
    const waiting = await streamingReply("queued");
    expect((await finish()).lineWaiting).toBe(true);
    await db.update(generations).set({ status: "stopped" }).where(eq(generations.id, waiting.generationId));
    expect((await finish()).lineWaiting).toBe(false);
  });

  it.runIf(driver === "postgres")(
    "asks under the claims' lock: a reply queued while a claim held it is seen once the lock is granted",
    async () => {
      // Another process's claim pass in progress, holding the line's lock; the reply it found
      // waiting commits as the lock is released, after this reply's end began.
      const other = new pg.Client({ connectionString: t.url as string });
      await other.connect();
      try {
        await other.query("begin");
        await other.query(`select pg_advisory_xact_lock(hashtext('hearth:generation-claim'))`);
        const conversationId = randomUUID();
        const queuedId = randomUUID();
        await other.query("insert into conversations (id, user_id, character_id) values ($1, $2, $3)", [
          conversationId,
          userId,
          characterId,
        ]);
        await other.query(
          `insert into generations (id, conversation_id, user_id, action, turn_at, capacity_key, max_running)
           values ($1, $2, $3, 'send', now(), 'test', 1)`,
          [queuedId, conversationId, userId],
        );
        const r = await streamingReply();
        const ending = storeFinishedReply(db, {
          ...r,
          status: "done",
          reply: { messageId: r.messageId, content: "Done.", state: "complete" },
        });
        // The end waits for the lock; its own statement began before the reply was committed.
        await expect.poll(() => lockWaiters(other)).toBe(1);
        await other.query("commit");
        expect((await ending).lineWaiting).toBe(true);
        await db.update(generations).set({ status: "stopped" }).where(eq(generations.id, queuedId));
      } finally {
        await other.end();
      }
    },
  );
});

/** Sessions waiting for an advisory lock (the reply's end, here). */
async function lockWaiters(client: pg.Client): Promise<number> {
  const { rows } = await client.query(
    "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())",
  );
  return Number(rows[0]?.n ?? 0);
}
