import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { characters } from "../characters/schema.ts";
import { type ConversationRow, conversations, type MessageRow, messages } from "../chats/schema.ts";
import { conversationLorebooks, lorebooks } from "../lorebooks/schema.ts";
import { memories, memoryProgress } from "../memories/schema.ts";
import type { PreparedChat } from "./formats/prepared.ts";

const PREVIEW_CHARS = 200;

/** A conversation with its character's name (a deleted character's too), or null. */
export async function findConversationForExport(
  db: Db,
  id: string,
): Promise<{ conversation: ConversationRow; characterName: string } | null> {
  const [row] = await db
    .select({ conversation: conversations, characterName: characters.name })
    .from(conversations)
    .innerJoin(characters, eq(characters.id, conversations.characterId))
    .where(eq(conversations.id, id))
    .limit(1);
  return row ?? null;
}

/** Everything an export writes: all messages in order, memories, and the attached books. */
export async function readConversationContents(db: Db, conversationId: string) {
  const [rows, memoryRows, books] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(asc(messages.seq)) as Promise<MessageRow[]>,
    db
      .select()
      .from(memories)
      .where(eq(memories.conversationId, conversationId))
      .orderBy(asc(memories.createdAt), asc(memories.id)),
    db
      .select({ id: lorebooks.id, name: lorebooks.name })
      .from(conversationLorebooks)
      .innerJoin(lorebooks, eq(lorebooks.id, conversationLorebooks.lorebookId))
      .where(eq(conversationLorebooks.conversationId, conversationId))
      .orderBy(asc(conversationLorebooks.position)),
  ]);
  return { messages: rows, memories: memoryRows, lorebooks: books };
}

/** Which of these lorebooks are the member's own (the others are not re-attached). */
export async function ownLorebookIds(db: Db, userId: string, ids: string[]): Promise<string[]> {
  const uuids = ids.filter((id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  );
  if (!uuids.length) return [];
  const rows = await db
    .select({ id: lorebooks.id })
    .from(lorebooks)
    .where(and(eq(lorebooks.userId, userId), inArray(lorebooks.id, uuids)));
  const own = new Set(rows.map((r) => r.id));
  return [...new Set(uuids.filter((id) => own.has(id)))];
}

/**
 * Stores an imported chat as a new conversation. Its messages go in by INSERT … SELECT from JSON
 * parameters (a few MB of rows each, so 100,000 messages are a few statements, not 100,000, and no
 * bind-parameter limit applies), each batch committed on its own: the embedded database runs one
 * transaction at a time, and one holding 100,000 messages kept every other request waiting for
 * seconds. Until the last step the conversation is unsaved, as a guest's chat is, so no list or
 * export shows it half-made; a failure deletes it, and one a crash leaves is purged with guests'
 * chats. The last step adds its memories and lorebook attachments and saves it, in one
 * transaction. The rows were written off the event loop (prepared.ts); each batch is decoded
 * only as its statement is sent.
 */
export async function insertImportedChat(
  db: Db,
  input: {
    userId: string;
    characterId: string;
    userPersonaId: string | null;
    chat: PreparedChat;
    lorebookIds: string[];
  },
): Promise<ConversationRow> {
  const { chat } = input;
  const now = new Date();
  const id = randomUUID();
  const { last, firstCreatedAt } = chat;
  await db.insert(conversations).values({
    id,
    userId: input.userId,
    characterId: input.characterId,
    userPersonaId: input.userPersonaId,
    label: chat.title,
    isSaved: false,
    messageCount: chat.messageCount,
    lastMessagePreview: last ? last.text.slice(0, PREVIEW_CHARS) : null,
    lastMessageRole: last?.role ?? null,
    lastMessageAt: last?.createdAt ?? null,
    createdAt: firstCreatedAt && firstCreatedAt < now ? firstCreatedAt : now,
    updatedAt: now,
  });
  try {
    const decoder = new TextDecoder();
    for (const batch of chat.rowBatches) {
      // The shown alternative is the message's content: the rows carry it once, in alternatives.
      await db.execute(sql`
        insert into messages (id, conversation_id, role, content, alternatives, alternative_index, state,
                              image_url, image_prompt, rating, created_at, updated_at)
        select x.id, ${id}, x.role, coalesce(x.alternatives ->> x.alternative_index, ''), x.alternatives,
               x.alternative_index, x.state, x.image_url, x.image_prompt, x.rating, x.created_at, ${now}
        from jsonb_to_recordset(${decoder.decode(batch)}::jsonb) as x(
          n int, id text, role text, alternatives jsonb, alternative_index int, state text,
          image_url text, image_prompt text, rating int, created_at timestamptz)
        order by x.n`);
    }
    return await db.transaction((tx) => completeImportedChat(tx, id, input, now));
  } catch (error) {
    // The import's own failure is what the caller hears; a chat this cannot delete is purged later.
    await db
      .delete(conversations)
      .where(eq(conversations.id, id))
      .catch(() => undefined);
    throw error;
  }
}

/** The import's last step: memories, what automatic memory has read, books, and the chat saved. */
async function completeImportedChat(
  tx: Db,
  id: string,
  input: { chat: PreparedChat; lorebookIds: string[] },
  now: Date,
): Promise<ConversationRow> {
  const { chat } = input;
  if (chat.memories.length) {
    await tx.insert(memories).values(
      chat.memories.map((m) => ({
        conversationId: id,
        content: m.content,
        pinned: m.pinned,
        source: m.source,
        messageIds: m.messageIds,
        createdAt: m.createdAt ?? now,
        updatedAt: m.createdAt ?? now,
      })),
    );
  }
  // Hearth's file carries its memories: its messages count as read, so automatic memory does not
  // write them a second time. A SillyTavern chat is read by automatic memory like any other.
  if (chat.format === "hearth" && chat.messageCount) {
    await tx.execute(sql`
      insert into ${memoryProgress} (conversation_id, through_seq)
      select ${id}, max(seq) from ${messages} where conversation_id = ${id}`);
  }
  if (input.lorebookIds.length) {
    await tx
      .insert(conversationLorebooks)
      .values(
        input.lorebookIds.map((lorebookId, position) => ({ conversationId: id, lorebookId, position })),
      );
  }
  const [saved] = await tx
    .update(conversations)
    .set({ isSaved: true })
    .where(eq(conversations.id, id))
    .returning();
  return saved as ConversationRow;
}
