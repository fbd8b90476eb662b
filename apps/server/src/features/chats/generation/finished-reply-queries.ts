import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { perDatabase } from "../../../db/per-database.ts";
import { characterMonthlyMessages, characters } from "../../characters/schema.ts";
import { summaryOf } from "../queries.ts";
import { conversations, generations, type MessageRow, messages } from "../schema.ts";
import { type PromptRecord, promptColumns } from "./queries.ts";

export interface FinishedReply {
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
}

/** Which parts the statement has: each such shape is built once per database (see below). */
interface Shape {
  reply: boolean;
  prompt: boolean;
  contextStart: boolean;
  character: boolean;
}

const statements = perDatabase(() => new Map<string, ReturnType<typeof buildStatement>>());

/** How many shapes of the statement were built for this database (tests). */
export function finishedReplyShapesBuilt(db: Db): number {
  return statements(db).size;
}

/**
 * A reply's end in one statement (issue 15 item 4; five round trips before): the reply's text and
 * state (with its alternatives copy), the conversation's preview, where its context starts and its
 * lock released, the generation's status, and (with `characterId`, when the reply is stored) one
 * more message on the character's card and in its month's leaderboard count. `ended` is false
 * when the generation had already ended (upkeep closed it): the text is stored all the same, and
 * the caller publishes nothing. `lineWaiting` says whether any reply waited in line as it ended
 * (`hearth_line_waiting`, migration 0019, asked under the claims' lock): when none did, the line
 * makes no claim pass for the slot it frees.
 *
 * The statement is built once per shape, with placeholders, and prepared: drizzle's builder took
 * about 1 ms of CPU to build it on every reply (docs/PERFORMANCE.md, "The floor").
 */
export async function storeFinishedReply(
  db: Db,
  r: FinishedReply,
): Promise<{ stored: MessageRow | null; ended: boolean; lineWaiting: boolean }> {
  const shape: Shape = {
    reply: r.reply !== null,
    prompt: Boolean(r.prompt),
    contextStart: r.contextStartMessageId !== undefined,
    character: Boolean(r.characterId) && r.reply !== null,
  };
  const key = `${+shape.reply}${+shape.prompt}${+shape.contextStart}${+shape.character}`;
  const byShape = statements(db);
  let statement = byShape.get(key);
  if (!statement) {
    statement = buildStatement(db, shape, `hearth_finished_reply_${key}`);
    byShape.set(key, statement);
  }
  const now = new Date();
  const summary = r.reply ? summaryOf({ content: r.reply.content, role: "bot", createdAt: now }) : null;
  const prompt = r.prompt ? promptColumns(r.prompt) : null;
  const [row] = await statement.execute({
    generationId: r.generationId,
    status: r.status,
    now,
    promptTrims: prompt?.promptTrims ? JSON.stringify(prompt.promptTrims) : null,
    promptReport: prompt ? JSON.stringify(prompt.promptReport) : null,
    conversationId: r.conversationId,
    preview: summary?.lastMessagePreview ?? null,
    contextStartMessageId: r.contextStartMessageId ?? null,
    messageId: r.reply?.messageId ?? null,
    content: r.reply?.content ?? "",
    state: r.reply?.state ?? "complete",
    characterId: r.characterId ?? null,
    month: now.toISOString().slice(0, 7),
  });
  // Unknown (no row came back) counts as waiting: the line then looks, as it always did.
  if (!r.reply) return { stored: null, ended: Boolean(row?.ended), lineWaiting: row?.lineWaiting !== false };
  // No row: the message is gone (its chat deleted meanwhile); there is nothing left to tell.
  if (!row) return { stored: null, ended: true, lineWaiting: true };
  const { ended, lineWaiting, ...message } = row as MessageRow & { ended: boolean; lineWaiting: boolean };
  return { stored: message as MessageRow, ended: Boolean(ended), lineWaiting: lineWaiting !== false };
}

/** The statement of one shape, every value a placeholder (named as in storeFinishedReply). */
function buildStatement(db: Db, shape: Shape, name: string) {
  const p = (placeholder: string) => sql.placeholder(placeholder);
  const ended = db.$with("ended").as(
    db
      .update(generations)
      .set({
        status: p("status") as unknown as "done",
        errorCode: null,
        finishedAt: p("now") as unknown as Date,
        // As JSON text (a null is SQL's null): a placeholder's value would be encoded as JSON, null too.
        ...(shape.prompt
          ? {
              promptTrims: sql`${p("promptTrims")}::jsonb`,
              promptReport: sql`${p("promptReport")}::jsonb`,
            }
          : {}),
      })
      .where(and(eq(generations.id, p("generationId")), inArray(generations.status, ["queued", "running"])))
      .returning({ id: generations.id }),
  );
  const conversation = db.$with("conversation").as(
    db
      .update(conversations)
      .set({
        activeGenerationId: sql`case when ${conversations.activeGenerationId} = ${p("generationId")} then null else ${conversations.activeGenerationId} end`,
        ...(shape.reply
          ? {
              lastMessagePreview: p("preview") as unknown as string,
              lastMessageRole: "bot" as const,
              lastMessageAt: p("now") as unknown as Date,
              updatedAt: p("now") as unknown as Date,
            }
          : {}),
        ...(shape.contextStart
          ? { contextStartMessageId: p("contextStartMessageId") as unknown as string | null }
          : {}),
      })
      .where(eq(conversations.id, p("conversationId")))
      .returning({ id: conversations.id }),
  );
  const endedNow = sql<boolean>`exists (select 1 from ${ended})`;
  const lineWaiting = sql<boolean>`hearth_line_waiting()`;
  if (!shape.reply)
    return db
      .with(ended, conversation)
      .select({ ended: endedNow, lineWaiting })
      .from(sql`(select 1) as one`)
      .prepare(name);
  const stored = db.$with("stored").as(
    db
      .update(messages)
      .set({
        content: p("content") as unknown as string,
        alternatives: sql`jsonb_set(${messages.alternatives}, array[${messages.alternativeIndex}::text], to_jsonb(${p("content")}::text))`,
        state: p("state") as unknown as MessageRow["state"],
        updatedAt: p("now") as unknown as Date,
      })
      .where(eq(messages.id, p("messageId")))
      .returning(),
  );
  const columns = Object.fromEntries(
    Object.keys(getTableColumns(messages)).map((k) => [k, stored[k as keyof MessageRow]]),
  ) as { [K in keyof MessageRow]: (typeof stored)[K] };
  // Data-modifying CTEs all run, whether or not the select reads them.
  const counted = shape.character ? characterCount(db) : [];
  return db
    .with(ended, conversation, stored, ...counted)
    .select({ ...columns, ended: endedNow, lineWaiting })
    .from(stored)
    .prepare(name);
}

/**
 * One more bot message for a character, as two CTEs of the statement that stores the reply (so a
 * reply costs no round trip for it): the "messages" figure on its card, and the month's count the
 * creators leaderboard scores. Counts only when the reply row was stored.
 */
function characterCount(db: Db) {
  const bumped = db.$with("bumped").as(
    db
      .update(characters)
      .set({ numMessages: sql`${characters.numMessages} + 1` })
      .where(and(eq(characters.id, sql.placeholder("characterId")), sql`exists (select 1 from stored)`))
      .returning({ id: characters.id }),
  );
  const month = db.$with("month_counted").as(
    db
      .insert(characterMonthlyMessages)
      .select(
        db
          .select({
            characterId: bumped.id,
            month: sql<string>`${sql.placeholder("month")}::text`.as("month"),
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
