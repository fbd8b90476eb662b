import type { PromptTrim } from "@hearth/contract";
import {
  and,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { characterMonthlyMessages, characters } from "../../characters/schema.ts";
import { summaryOf } from "../queries.ts";
import {
  conversations,
  dailyUsage,
  type GenerationRow,
  generations,
  type MessageRow,
  messages,
  type StoredPromptReport,
} from "../schema.ts";

export async function createGeneration(
  db: Db,
  g: Pick<
    GenerationRow,
    | "id"
    | "conversationId"
    | "userId"
    | "action"
    | "messageId"
    | "modelId"
    | "settings"
    | "turnAt"
    | "capacityKey"
    | "maxRunning"
  >,
): Promise<GenerationRow> {
  const [row] = await db.insert(generations).values(g).returning();
  return row as GenerationRow;
}

/** Claims the conversation for one generation; false when another one is running. */
export async function claimConversation(
  db: Db,
  conversationId: string,
  generationId: string,
): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ activeGenerationId: generationId })
    .where(and(eq(conversations.id, conversationId), isNull(conversations.activeGenerationId)))
    .returning({ id: conversations.id });
  return rows.length === 1;
}

export async function releaseConversation(
  db: Db,
  conversationId: string,
  generationId: string,
): Promise<void> {
  await db
    .update(conversations)
    .set({ activeGenerationId: null })
    .where(and(eq(conversations.id, conversationId), eq(conversations.activeGenerationId, generationId)));
}

export async function findGeneration(db: Db, id: string): Promise<GenerationRow | null> {
  const [row] = await db.select().from(generations).where(eq(generations.id, id)).limit(1);
  return row ?? null;
}

/** What the prompt cut to fit, and what it held (for "why did it say that"). */
export interface PromptRecord {
  trims: PromptTrim[];
  report: StoredPromptReport;
}

const promptColumns = (p: PromptRecord) => ({
  promptTrims: p.trims.length > 0 ? p.trims : null,
  promptReport: p.report,
});

/** Stores the prompt's record when a reply ends otherwise than by `storeFinishedReply`. */
export async function recordPrompt(db: Db, id: string, prompt: PromptRecord): Promise<void> {
  await db.update(generations).set(promptColumns(prompt)).where(eq(generations.id, id));
}

/**
 * Ends a generation that has not ended yet; false when it had (another process recovered it,
 * or it was stopped), so whoever loses the race writes and publishes nothing more.
 */
export async function finishGeneration(
  db: Db,
  id: string,
  status: "done" | "stopped" | "failed" | "interrupted",
  errorCode: string | null = null,
): Promise<boolean> {
  const rows = await db
    .update(generations)
    .set({ status, errorCode, finishedAt: new Date() })
    .where(and(eq(generations.id, id), inArray(generations.status, ["queued", "running"])))
    .returning({ id: generations.id });
  return rows.length === 1;
}

/**
 * Generations cut off by a crash: running ones whose worker stopped beating, queued ones older
 * than `queuedBefore`, or (for an in-process queue after a restart) every unfinished one.
 */
export async function findOrphans(db: Db, opts: { staleBefore: Date; queuedBefore: Date; all: boolean }) {
  const unfinished = inArray(generations.status, ["queued", "running"]);
  const orphaned = opts.all
    ? unfinished
    : or(
        and(eq(generations.status, "running"), lt(generations.heartbeatAt, opts.staleBefore)),
        and(eq(generations.status, "queued"), lt(generations.createdAt, opts.queuedBefore)),
      );
  return db
    .select()
    .from(generations)
    .where(opts.all ? unfinished : orphaned);
}

/** Marks a reply cut off mid-way: its text so far stays, also as its selected alternative. */
export async function markMessageInterrupted(db: Db, messageId: string): Promise<void> {
  await db
    .update(messages)
    .set({
      state: "interrupted",
      alternatives: sql`jsonb_set(${messages.alternatives}, array[${messages.alternativeIndex}::text], to_jsonb(${messages.content}))`,
      updatedAt: new Date(),
    })
    .where(and(eq(messages.id, messageId), eq(messages.state, "streaming")));
}

export function utcDay(at = new Date()): string {
  return at.toISOString().slice(0, 10);
}

export async function messagesSentToday(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ messages: dailyUsage.messages })
    .from(dailyUsage)
    .where(and(eq(dailyUsage.userId, userId), eq(dailyUsage.day, utcDay())))
    .limit(1);
  return row?.messages ?? 0;
}

export async function countMessageSent(db: Db, userId: string): Promise<void> {
  await db
    .insert(dailyUsage)
    .values({ userId, day: utcDay(), messages: 1 })
    .onConflictDoUpdate({
      target: [dailyUsage.userId, dailyUsage.day],
      set: { messages: sql`${dailyUsage.messages} + 1` },
    });
}

/**
 * The newest recorded prompt of a bot message, when the message lies in this user's conversation
 * (another user's message answers like one with no prompt).
 */
export async function latestPromptOf(
  db: Db,
  userId: string,
  messageId: string,
): Promise<(Pick<GenerationRow, "createdAt" | "modelId"> & { report: StoredPromptReport }) | null> {
  const [row] = await db
    .select({
      createdAt: generations.createdAt,
      modelId: generations.modelId,
      report: generations.promptReport,
    })
    .from(generations)
    .innerJoin(conversations, eq(conversations.id, generations.conversationId))
    .where(
      and(
        eq(generations.messageId, messageId),
        eq(conversations.userId, userId),
        isNotNull(generations.promptReport),
      ),
    )
    .orderBy(desc(generations.createdAt))
    .limit(1);
  return row?.report ? { createdAt: row.createdAt, modelId: row.modelId, report: row.report } : null;
}

/**
 * A reply's end in one statement (issue 15 item 4; five round trips before): the reply's text and
 * state (with its alternatives copy), the conversation's preview, where its context starts and its
 * lock released, the generation's status, and (with `characterId`, when the reply is stored) one
 * more message on the character's card and in its month's leaderboard count. `ended` is false
 * when the generation had already
 * ended (upkeep closed it): the text is stored all the same, and the caller publishes nothing.
 */
export async function storeFinishedReply(
  db: Db,
  r: {
    generationId: string;
    conversationId: string;
    status: "done" | "stopped";
    reply: { messageId: string; content: string; state: MessageRow["state"] } | null;
    /** Undefined leaves it as it is (an autopilot suggestion moves nothing). */
    contextStartMessageId?: string | null;
    /** The character whose message count a stored reply adds to. */
    characterId?: string;
    /** The prompt's record, stored with the generation's status. */
    prompt?: PromptRecord | null;
  },
): Promise<{ stored: MessageRow | null; ended: boolean }> {
  const now = new Date();
  const ended = db.$with("ended").as(
    db
      .update(generations)
      .set({
        status: r.status,
        errorCode: null,
        finishedAt: now,
        ...(r.prompt ? promptColumns(r.prompt) : {}),
      })
      .where(and(eq(generations.id, r.generationId), inArray(generations.status, ["queued", "running"])))
      .returning({ id: generations.id }),
  );
  const conversation = db.$with("conversation").as(
    db
      .update(conversations)
      .set({
        activeGenerationId: sql`case when ${conversations.activeGenerationId} = ${r.generationId} then null else ${conversations.activeGenerationId} end`,
        ...(r.reply
          ? { ...summaryOf({ content: r.reply.content, role: "bot", createdAt: now }), updatedAt: now }
          : {}),
        ...(r.contextStartMessageId !== undefined ? { contextStartMessageId: r.contextStartMessageId } : {}),
      })
      .where(eq(conversations.id, r.conversationId))
      .returning({ id: conversations.id }),
  );
  const endedNow = sql<boolean>`exists (select 1 from ${ended})`;
  if (!r.reply) {
    const [row] = await db.with(ended, conversation).select({ ended: endedNow }).from(sql`(select 1) as one`);
    return { stored: null, ended: Boolean(row?.ended) };
  }
  const { messageId, content, state } = r.reply;
  const stored = db.$with("stored").as(
    db
      .update(messages)
      .set({
        content,
        alternatives: sql`jsonb_set(${messages.alternatives}, array[${messages.alternativeIndex}::text], to_jsonb(${content}::text))`,
        state,
        updatedAt: now,
      })
      .where(eq(messages.id, messageId))
      .returning(),
  );
  const columns = Object.fromEntries(
    Object.keys(getTableColumns(messages)).map((k) => [k, stored[k as keyof MessageRow]]),
  ) as { [K in keyof MessageRow]: (typeof stored)[K] };
  // Data-modifying CTEs all run, whether or not the select reads them.
  const counted = r.characterId
    ? characterCount(db, r.characterId, sql`exists (select 1 from ${stored})`, now)
    : [];
  const [row] = await db
    .with(ended, conversation, stored, ...counted)
    .select({ ...columns, ended: endedNow })
    .from(stored);
  // No row: the message is gone (its chat deleted meanwhile); there is nothing left to tell.
  if (!row) return { stored: null, ended: true };
  const { ended: endedHere, ...message } = row;
  return { stored: message as MessageRow, ended: Boolean(endedHere) };
}

/**
 * One more bot message for a character, as two CTEs of the statement that stores the reply (so a
 * reply costs no round trip for it): the "messages" figure on its card, and the month's count the
 * creators leaderboard scores. Counts only when `when` holds (the reply row was stored).
 */
function characterCount(db: Db, characterId: string, when: SQL, at: Date) {
  const bumped = db.$with("bumped").as(
    db
      .update(characters)
      .set({ numMessages: sql`${characters.numMessages} + 1` })
      .where(and(eq(characters.id, characterId), when))
      .returning({ id: characters.id }),
  );
  const month = db.$with("month_counted").as(
    db
      .insert(characterMonthlyMessages)
      .select(
        db
          .select({
            characterId: bumped.id,
            month: sql<string>`${at.toISOString().slice(0, 7)}::text`.as("month"),
            messages: sql<number>`1`.as("messages"),
          })
          .from(bumped),
      )
      .onConflictDoUpdate({
        target: [characterMonthlyMessages.characterId, characterMonthlyMessages.month],
        set: { messages: sql`${characterMonthlyMessages.messages} + 1` },
      })
      .returning({ characterId: characterMonthlyMessages.characterId }),
  );
  return [bumped, month] as const;
}
