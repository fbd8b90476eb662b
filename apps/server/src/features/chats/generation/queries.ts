import type { PromptTrim } from "@hearth/contract";
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type CharacterRow, characters } from "../../characters/schema.ts";
import {
  conversations,
  dailyUsage,
  type GenerationRow,
  generations,
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

/** The generation's columns for a prompt's record (no trims is null). */
export const promptColumns = (p: PromptRecord) => ({
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

/** What the prompt report's policy needs of the chat's character (who may see its definition). */
export type ReportCharacter = Pick<
  CharacterRow,
  "creatorUserId" | "visibility" | "deletedAt" | "definitionVisible" | "moderationStatus"
>;

/**
 * The newest recorded prompt of a bot message, when the message lies in this user's conversation
 * (another user's message answers like one with no prompt), with the chat's character as it is now.
 */
export async function latestPromptOf(
  db: Db,
  userId: string,
  messageId: string,
): Promise<
  | (Pick<GenerationRow, "createdAt" | "modelId"> & {
      report: StoredPromptReport;
      character: ReportCharacter;
    })
  | null
> {
  const [row] = await db
    .select({
      createdAt: generations.createdAt,
      modelId: generations.modelId,
      report: generations.promptReport,
      character: {
        creatorUserId: characters.creatorUserId,
        visibility: characters.visibility,
        deletedAt: characters.deletedAt,
        definitionVisible: characters.definitionVisible,
        moderationStatus: characters.moderationStatus,
      },
    })
    .from(generations)
    .innerJoin(conversations, eq(conversations.id, generations.conversationId))
    .innerJoin(characters, eq(characters.id, conversations.characterId))
    .where(
      and(
        eq(generations.messageId, messageId),
        eq(conversations.userId, userId),
        isNotNull(generations.promptReport),
      ),
    )
    .orderBy(desc(generations.createdAt))
    .limit(1);
  return row?.report
    ? { createdAt: row.createdAt, modelId: row.modelId, report: row.report, character: row.character }
    : null;
}
