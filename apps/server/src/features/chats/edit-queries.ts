import { randomUUID } from "node:crypto";
import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { copyConversationLorebooks } from "../lorebooks/index.ts";
import { copyMemories, forgetMemoriesOf } from "../memories/index.ts";
import { lastMessage, summaryOf, writeReply } from "./queries.ts";
import { type ConversationRow, conversations, type MessageRow, messages } from "./schema.ts";

/** Replaces the text of a message's selected alternative; an edited reply counts as complete. */
export async function editMessageText(
  db: Db,
  messageId: string,
  content: string,
): Promise<MessageRow | null> {
  await forgetMemoriesOf(db, [messageId]);
  return writeReply(db, messageId, content, "complete");
}

export async function editImagePrompt(
  db: Db,
  messageId: string,
  imagePrompt: string,
): Promise<MessageRow | null> {
  const [row] = await db
    .update(messages)
    .set({ imagePrompt, updatedAt: new Date() })
    .where(eq(messages.id, messageId))
    .returning();
  return row ?? null;
}

/** Moves the conversation's summary to its newest remaining message after messages were removed. */
async function refreshSummary(
  db: Db,
  conversationId: string,
  removed: number,
): Promise<ConversationRow | null> {
  const newest = await lastMessage(db, conversationId);
  const [row] = await db
    .update(conversations)
    .set({
      messageCount: sql`greatest(${conversations.messageCount} - ${removed}, 0)`,
      ...summaryOf(newest),
      contextStartMessageId: null,
      updatedAt: new Date(),
    })
    .where(eq(conversations.id, conversationId))
    .returning();
  return row ?? null;
}

/** Removes a message and everything after it (Remove Messages mode). */
export async function removeMessagesFrom(
  db: Db,
  from: MessageRow,
): Promise<{ removed: number; conversation: ConversationRow | null }> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(messages)
      .where(and(eq(messages.conversationId, from.conversationId), gte(messages.seq, from.seq)))
      .returning({ id: messages.id });
    await forgetMemoriesOf(
      tx as unknown as Db,
      gone.map((m) => m.id),
    );
    const conversation = await refreshSummary(tx as unknown as Db, from.conversationId, gone.length);
    return { removed: gone.length, conversation };
  });
}

/**
 * Copies a conversation, whole or up to a message, into a new one for the same user: one
 * INSERT … SELECT, so a long chat is copied by the database without a round trip per message.
 */
export async function cloneConversation(
  db: Db,
  source: ConversationRow,
  opts: { label: string; upToSeq: number | null },
): Promise<ConversationRow> {
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const now = new Date();
    const [created] = await tx
      .insert(conversations)
      .values({
        id,
        userId: source.userId,
        characterId: source.characterId,
        userPersonaId: source.userPersonaId,
        voiceId: source.voiceId,
        label: opts.label,
        isSaved: source.isSaved,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const upTo = opts.upToSeq === null ? sql`true` : lte(messages.seq, opts.upToSeq);
    const copied = await tx.execute<{ old_id: string; new_id: string }>(sql`
      with source as (
        select *, gen_random_uuid()::text as new_id from messages
        where conversation_id = ${source.id} and ${upTo}
      ), inserted as (
        insert into messages (id, conversation_id, role, content, alternatives, alternative_index, state, image_url, image_prompt, rating, created_at, updated_at)
        select new_id, ${id}, role, content, alternatives, alternative_index,
               case when state = 'streaming' then 'interrupted' else state end,
               image_url, image_prompt, rating, created_at, ${now}
        from source
        order by seq
        returning id
      )
      select id as old_id, new_id from source`);
    // The clone keeps the memories whose messages it keeps (manual ones always).
    const messageIdMap = new Map(copied.rows.map((r) => [r.old_id, r.new_id]));
    await copyMemories(tx as unknown as Db, source.id, id, messageIdMap);
    await copyConversationLorebooks(tx as unknown as Db, source.id, id);
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.conversationId, id));
    const newest = await lastMessage(tx as unknown as Db, id);
    const [row] = await tx
      .update(conversations)
      .set({
        messageCount: counted?.n ?? 0,
        ...summaryOf(newest),
      })
      .where(eq(conversations.id, id))
      .returning();
    return (row ?? created) as ConversationRow;
  });
}
