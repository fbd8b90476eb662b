import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, not, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { perDatabase } from "../../db/per-database.ts";
import { forgetMemoriesOf } from "../memories/index.ts";
import { type ConversationRow, conversations, type MessageRow, messages } from "./schema.ts";

const PREVIEW_CHARS = 200;

/** The conversation row's copy of its newest message, for chat lists. */
export function summaryOf(newest: Pick<MessageRow, "content" | "role" | "createdAt"> | null) {
  return {
    lastMessagePreview: newest ? newest.content.slice(0, PREVIEW_CHARS) : null,
    lastMessageRole: newest?.role ?? null,
    lastMessageAt: newest?.createdAt ?? null,
  };
}

export async function findConversation(db: Db, id: string): Promise<ConversationRow | null> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  return row ?? null;
}

export interface NewConversation {
  userId: string;
  characterId: string;
  userPersonaId: string | null;
  isSaved: boolean;
  /** The greeting and its alternatives; empty when the character has none. */
  greetings: string[];
}

export async function insertConversation(
  db: Db,
  c: NewConversation,
): Promise<{ conversation: ConversationRow; messages: MessageRow[] }> {
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const now = new Date();
    const greeting = c.greetings[0];
    const [conversation] = await tx
      .insert(conversations)
      .values({
        id,
        userId: c.userId,
        characterId: c.characterId,
        userPersonaId: c.userPersonaId,
        isSaved: c.isSaved,
        messageCount: greeting === undefined ? 0 : 1,
        lastMessagePreview: greeting?.slice(0, PREVIEW_CHARS) ?? null,
        lastMessageRole: greeting === undefined ? null : "bot",
        lastMessageAt: greeting === undefined ? null : now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const inserted =
      greeting === undefined
        ? []
        : await tx
            .insert(messages)
            .values({
              id: randomUUID(),
              conversationId: id,
              role: "bot",
              content: greeting,
              alternatives: c.greetings,
            })
            .returning();
    return { conversation: conversation as ConversationRow, messages: inserted };
  });
}

/**
 * A chat the user has written in. One that holds only the greeting is not listed: opening a
 * chat is not having one.
 */
const started = () => or(gt(conversations.messageCount, 1), eq(conversations.lastMessageRole, "user"));

/** The user's newest chat with this character (and persona) that nobody has written in yet. */
export async function findUnstartedConversation(
  db: Db,
  userId: string,
  characterId: string,
  userPersonaId: string | null,
): Promise<ConversationRow | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.userId, userId),
        eq(conversations.characterId, characterId),
        userPersonaId ? eq(conversations.userPersonaId, userPersonaId) : isNull(conversations.userPersonaId),
        not(started() as SQL),
      ),
    )
    .orderBy(desc(conversations.createdAt))
    .limit(1);
  return row ?? null;
}

/** A user's saved conversations they have written in, most recently active first; `lastId` continues a page. */
export async function listConversations(
  db: Db,
  userId: string,
  opts: { limit: number; lastId?: string; characterId?: string },
) {
  const filters = [eq(conversations.userId, userId), eq(conversations.isSaved, true), started()];
  if (opts.characterId) filters.push(eq(conversations.characterId, opts.characterId));
  if (opts.lastId) {
    const last = await findConversation(db, opts.lastId);
    if (last && last.userId === userId) {
      const before = or(
        lt(conversations.updatedAt, last.updatedAt),
        and(eq(conversations.updatedAt, last.updatedAt), lt(conversations.id, last.id)),
      );
      if (before) filters.push(before);
    }
  }
  const rows = await db
    .select()
    .from(conversations)
    .where(and(...filters))
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(opts.limit + 1);
  return { rows: rows.slice(0, opts.limit), isLast: rows.length <= opts.limit };
}

export async function deleteConversation(db: Db, id: string): Promise<void> {
  await db.delete(conversations).where(eq(conversations.id, id));
}

export async function updateConversation(
  db: Db,
  id: string,
  change: Partial<Pick<ConversationRow, "label" | "userPersonaId" | "voiceId" | "contextStartMessageId">>,
): Promise<ConversationRow | null> {
  const [row] = await db.update(conversations).set(change).where(eq(conversations.id, id)).returning();
  return row ?? null;
}

/** Newest page first; `before` pages back. Each page is returned oldest → newest. */
export async function messagePage(db: Db, conversationId: string, opts: { limit: number; before?: string }) {
  const { newest, before } = messagePageQueries(db);
  const rows = opts.before
    ? await before.execute({ conversationId, before: opts.before, limit: opts.limit + 1 })
    : await newest.execute({ conversationId, limit: opts.limit + 1 });
  return { rows: rows.slice(0, opts.limit).reverse(), hasMore: rows.length > opts.limit };
}

/**
 * messagePage's two statements, built once per database and prepared (every reply's prompt reads
 * its history with them). A page before a message reads older ones than it in the same statement;
 * a message that is not in the chat leaves the newest page, as when it was looked up first.
 */
const messagePageQueries = perDatabase((db) => {
  const page = (older: SQL | undefined, name: string) =>
    db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, sql.placeholder("conversationId")), older))
      .orderBy(desc(messages.seq))
      .limit(sql.placeholder("limit"))
      .prepare(name);
  const anchorSeq = sql`coalesce((select anchor.seq from ${messages} as anchor
    where anchor.id = ${sql.placeholder("before")} and anchor.conversation_id = ${sql.placeholder("conversationId")}),
    9223372036854775807)`;
  return {
    newest: page(undefined, "hearth_message_page"),
    before: page(lt(messages.seq, anchorSeq), "hearth_message_page_before"),
  };
});

/** Messages read per page while gathering history for a prompt. */
const HISTORY_PAGE = 40;

/**
 * The newest messages, oldest first, until they hold more tokens than the budget: what the prompt
 * can use and a little more, read a page at a time. Cost follows the context size, never the
 * conversation's length.
 */
export async function historyWithin(
  db: Db,
  conversationId: string,
  budget: number,
  countTokens: (text: string) => number,
) {
  const out: MessageRow[] = [];
  let tokens = 0;
  let before: string | undefined;
  for (;;) {
    const page = await messagePage(db, conversationId, { limit: HISTORY_PAGE, before });
    out.unshift(...page.rows);
    for (const m of page.rows) tokens += countTokens(m.content);
    if (!page.hasMore || tokens > budget || !page.rows[0]) return out;
    before = page.rows[0].id;
  }
}

export async function findMessage(db: Db, id: string): Promise<MessageRow | null> {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row ?? null;
}

export async function lastMessage(db: Db, conversationId: string): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.seq))
    .limit(1);
  return row ?? null;
}

/**
 * Appends one message and moves the conversation's summary along in a single statement (two
 * data-modifying CTEs): one round trip, atomic, and the same cost whatever the chat's length.
 */
export async function appendMessage(
  db: Db,
  m: { conversationId: string; role: "user" | "bot"; content: string; state?: MessageRow["state"] },
): Promise<MessageRow> {
  const now = new Date();
  const inserted = db.$with("inserted").as(
    db
      .insert(messages)
      .values({
        id: randomUUID(),
        conversationId: m.conversationId,
        role: m.role,
        content: m.content,
        alternatives: [m.content],
        state: m.state ?? "complete",
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  const summary = db.$with("summary").as(
    db
      .update(conversations)
      .set({
        messageCount: sql`${conversations.messageCount} + 1`,
        ...summaryOf({ content: m.content, role: m.role, createdAt: now }),
        updatedAt: now,
      })
      .where(eq(conversations.id, m.conversationId))
      .returning({ id: conversations.id }),
  );
  const [row] = await db.with(inserted, summary).select().from(inserted);
  return row as MessageRow;
}

/** Adds an empty alternative to a bot message and selects it (regenerate). */
export async function addAlternative(db: Db, messageId: string): Promise<MessageRow | null> {
  // What the old alternative led the model to remember goes with it.
  await forgetMemoriesOf(db, [messageId]);
  const [row] = await db
    .update(messages)
    .set({
      alternatives: sql`${messages.alternatives} || '[""]'::jsonb`,
      alternativeIndex: sql`jsonb_array_length(${messages.alternatives})`,
      content: "",
      state: "streaming",
      updatedAt: new Date(),
    })
    .where(eq(messages.id, messageId))
    .returning();
  return row ?? null;
}

/** Writes the text of the selected alternative (a reply as it grows, or when it ends). */
export async function writeReply(
  db: Db,
  messageId: string,
  content: string,
  state: MessageRow["state"],
): Promise<MessageRow | null> {
  const [row] = await db
    .update(messages)
    .set({
      content,
      alternatives: sql`jsonb_set(${messages.alternatives}, array[${messages.alternativeIndex}::text], to_jsonb(${content}::text))`,
      state,
      updatedAt: new Date(),
    })
    .where(eq(messages.id, messageId))
    .returning();
  return row ?? null;
}

/**
 * The reply so far, while it streams: only `content`, the cheapest write; the alternatives copy
 * is brought in step when the reply ends (`writeReply`) or is recovered after a crash.
 */
export async function writeStreamingText(db: Db, messageId: string, content: string): Promise<void> {
  await db.update(messages).set({ content }).where(eq(messages.id, messageId));
}

export async function selectAlternative(
  db: Db,
  messageId: string,
  index: number,
): Promise<MessageRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({
        alternativeIndex: index,
        content: sql`${messages.alternatives} ->> ${index}::int`,
        updatedAt: new Date(),
      })
      .where(and(eq(messages.id, messageId), gt(sql`jsonb_array_length(${messages.alternatives})`, index)))
      .returning();
    // Alternatives that are not selected never feed memory; a refused choice changes nothing.
    if (row) await forgetMemoriesOf(tx, [messageId]);
    return row ?? null;
  });
}

/** Keeps the conversation summary in step after a reply's text changed. */
export async function touchConversation(
  db: Db,
  conversationId: string,
  preview: string,
  role: "user" | "bot",
) {
  await db
    .update(conversations)
    .set({
      lastMessagePreview: preview.slice(0, PREVIEW_CHARS),
      lastMessageRole: role,
      lastMessageAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(conversations.id, conversationId));
}

export async function purgeGuestConversations(db: Db, olderThan: Date): Promise<void> {
  await db
    .delete(conversations)
    .where(and(eq(conversations.isSaved, false), lt(conversations.updatedAt, olderThan)));
}
