import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
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

  /** A chat whose reply is streaming under a running generation. */
  async function streamingReply() {
    const conversationId = randomUUID();
    await db.insert(conversations).values({ id: conversationId, userId, characterId });
    const reply = await appendMessage(db, { conversationId, role: "bot", content: "", state: "streaming" });
    const generationId = randomUUID();
    await db.insert(generations).values({
      id: generationId,
      conversationId,
      userId,
      action: "send",
      status: "running",
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
    expect(first).toEqual({ stored: null, ended: true });
    const again = await storeFinishedReply(db, { ...r, status: "stopped", reply: null });
    expect(again).toEqual({ stored: null, ended: false });
    const [chat] = await db.select().from(conversations).where(eq(conversations.id, r.conversationId));
    // Without a reply the chat's preview and context start are left as they were.
    expect(chat).toMatchObject({ activeGenerationId: null, lastMessagePreview: "" });
  });
});
