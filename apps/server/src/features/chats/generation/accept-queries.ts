import { randomUUID } from "node:crypto";
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { perDatabase } from "../../../db/per-database.ts";
import { sessionColumns, sessionOfToken, viewerColumns } from "../../accounts/index.ts";
import { sessions, users } from "../../accounts/schema.ts";
import { blockedCreators } from "../../blocking/schema.ts";
import { characters } from "../../characters/schema.ts";
import { conversationLorebooks } from "../../lorebooks/schema.ts";
import { memories } from "../../memories/schema.ts";
import { FALLBACK_USER_NAME, type PromptPersona } from "../../personas/index.ts";
import { personas } from "../../personas/schema.ts";
import { conversations, dailyUsage, type MessageRow } from "../schema.ts";
import { utcDay } from "./queries.ts";

/**
 * Accepting a message reads and writes in one round trip each (issue 15 item 4): these two
 * statements replace about a dozen small ones, none growing with the chat's length.
 */

/**
 * Everything the checks before storing need, read at once: the conversation, its live character,
 * and of its owner (who must be the viewer, checked after) today's usage, the chosen default
 * model, the own-key mode, whether they blocked the character's creator, and the persona the
 * prompt would use (the chat's, else their default, else their name; personas/prompt.ts's rule).
 * The worker reads the same (or is handed it): whether the chat has memories or attached books
 * spares most prompts those two reads.
 */
export async function acceptContext(db: Db, conversationId: string) {
  const [row] = await acceptContextQuery(db).execute({ conversationId, day: utcDay() });
  return row ? contextOf(row) : null;
}

/**
 * The same read, with the session of a verified token (accounts' `sessionOfToken`) joined to
 * it: the request's session and its chat in one statement (routes.ts, `viewerFromRead`).
 * The session comes back whoever's it is; the viewer is decided from it as the lookup would.
 */
export async function acceptContextWithSession(db: Db, conversationId: string, sessionToken: string) {
  const [row] = await acceptContextWithSessionQuery(db).execute({
    conversationId,
    day: utcDay(),
    sessionToken,
    now: new Date(),
  });
  return row ? { context: contextOf(row), session: row.session } : null;
}

type ContextRow = Awaited<ReturnType<ReturnType<typeof acceptContextQuery>["execute"]>>[number];

function contextOf(row: ContextRow) {
  const p = typeof row.persona === "string" ? JSON.parse(row.persona) : row.persona;
  const persona: PromptPersona = p
    ? { id: p.id, name: p.name, description: p.highlights }
    : { id: null, name: row.owner.name?.trim() || FALLBACK_USER_NAME, description: "" };
  return {
    conversation: row.conversation,
    character: row.character,
    /** The conversation's owner (the worker's viewer: a reply is always its owner's). */
    owner: row.owner,
    defaultModelId: row.defaultModelId,
    llmMode: row.llmMode,
    llmKeyEncrypted: row.llmKeyEncrypted,
    sentToday: Number(row.sentToday),
    creatorBlocked: Boolean(row.creatorBlocked),
    persona,
    /** Whether the chat has memories or attached books: the worker reads them only then. */
    hasMemories: Boolean(row.hasMemories),
    hasAttachedBooks: Boolean(row.hasAttachedBooks),
  };
}

/** What `acceptContext` reads: the worker takes it from the accept when the reply is claimed at once. */
export type AcceptContext = NonNullable<Awaited<ReturnType<typeof acceptContext>>>;

/**
 * acceptContext's statement, built once per database and prepared (issue 15 item 4: building
 * this select's SQL was an eighth of an accept's CPU).
 */
const acceptContextQuery = perDatabase((db) =>
  db
    .select(contextFields())
    .from(conversations)
    .innerJoin(users, itsOwner)
    .leftJoin(characters, itsLiveCharacter)
    .where(ofConversation)
    .limit(1)
    .prepare("hearth_accept_context"),
);
const acceptContextWithSessionQuery = perDatabase((db) =>
  db
    .select({ ...contextFields(), session: sessionColumns })
    .from(conversations)
    .innerJoin(users, itsOwner)
    .leftJoin(characters, itsLiveCharacter)
    .leftJoin(sessions, sessionOfToken)
    .where(ofConversation)
    .limit(1)
    .prepare("hearth_accept_context_session"),
);

/**
 * The character's columns an accept and its reply use. Not the card's round-trip extras, its
 * notes for readers, its other greetings or its tags: on a long real-world card these can be
 * most of the row, and every accept would read, decode and (on PGlite) pass them between threads.
 */
const UNUSED_BY_REPLIES = [
  "extensions",
  "creatorNotes",
  "alternateGreetings",
  "cardSource",
  "tags",
  "tagLabels",
  "reasonForModeration",
  "actionTakenDescription",
  "reportsType",
] as const;
const unused = new Set<string>(UNUSED_BY_REPLIES);
const acceptCharacterColumns = Object.fromEntries(
  Object.entries(getTableColumns(characters)).filter(([name]) => !unused.has(name)),
) as Omit<typeof characters._.columns, (typeof UNUSED_BY_REPLIES)[number]>;

// Built when a statement is first prepared, not as this module loads: what it takes from
// accounts may not be initialised yet then (the features' imports can meet in a cycle).
const contextFields = () => ({
  conversation: conversations,
  character: acceptCharacterColumns,
  owner: viewerColumns,
  defaultModelId: users.defaultModelId,
  llmMode: users.llmMode,
  llmKeyEncrypted: users.llmApiKeyEncrypted,
  sentToday: sql<number>`coalesce((select ${dailyUsage.messages} from ${dailyUsage}
        where ${dailyUsage.userId} = ${conversations.userId} and ${dailyUsage.day} = ${sql.placeholder("day")}), 0)`,
  creatorBlocked: sql<boolean>`exists (select 1 from ${blockedCreators}
        where ${blockedCreators.userId} = ${conversations.userId}
          and ${blockedCreators.creatorUserId} = ${characters.creatorUserId})`,
  persona: sql<{ id: string; name: string; highlights: string } | null>`(
        select json_build_object('id', ${personas.id}, 'name', ${personas.name}, 'highlights', ${personas.highlights})
        from ${personas}
        where ${personas.userId} = ${conversations.userId}
          and (${personas.id}::text = ${conversations.userPersonaId} or ${personas.isDefault})
        order by (${personas.id}::text = ${conversations.userPersonaId}) is true desc
        limit 1)`,
  hasMemories: sql<boolean>`exists (select 1 from ${memories}
        where ${memories.conversationId} = ${conversations.id})`,
  hasAttachedBooks: sql<boolean>`exists (select 1 from ${conversationLorebooks}
        where ${conversationLorebooks.conversationId} = ${conversations.id})`,
});

// The conversation with its owner and its live character.
const ofConversation = eq(conversations.id, sql.placeholder("conversationId"));
const itsOwner = eq(users.id, conversations.userId);
const itsLiveCharacter = and(eq(characters.id, conversations.characterId), isNull(characters.deletedAt));

export interface SendTurn {
  conversationId: string;
  userId: string;
  generationId: string;
  content: string;
  modelId: string;
  settings: Record<string, number> | null;
  turnAt: Date;
  capacityKey: string;
  maxRunning: number;
}

/**
 * A send, in one statement: claims the conversation (only when no reply is being written), adds
 * the user's message and the empty reply (in that order of `seq`) with the conversation's summary,
 * records the generation with its place in the scheduler's line, and counts the day's message.
 * Nothing is written when the claim fails (null: 409). Also answers the reply's place in line
 * for its capacity, counted as `placeInQueue` does, and the conversation's new message count.
 */
export async function storeSend(
  db: Db,
  t: SendTurn,
): Promise<{ userMessage: MessageRow; reply: MessageRow; position: number; messageCount: number } | null> {
  const userAt = new Date();
  // A millisecond apart, as when they were two statements: "newest first" by time stays exact.
  const replyAt = new Date(userAt.getTime() + 1);
  const ids = { user: randomUUID(), reply: randomUUID() };
  const { rows } = await db.execute<{
    id: string;
    seq: string | number;
    position: number;
    message_count: number;
  }>(sql`
    with claimed as (
      update conversations set active_generation_id = ${t.generationId},
        message_count = message_count + 2, last_message_preview = '', last_message_role = 'bot',
        last_message_at = ${replyAt.toISOString()}::timestamptz, updated_at = ${replyAt.toISOString()}::timestamptz
      where id = ${t.conversationId} and active_generation_id is null
      returning id, message_count),
    added as (
      insert into messages (id, conversation_id, role, content, alternatives, state, created_at, updated_at)
      select v.id, claimed.id, v.role, v.content, jsonb_build_array(v.content), v.state, v.at, v.at
      from claimed cross join (values
        (1, ${ids.user}, 'user', ${t.content}, 'complete', ${userAt.toISOString()}::timestamptz),
        (2, ${ids.reply}, 'bot', '', 'streaming', ${replyAt.toISOString()}::timestamptz)
      ) as v(n, id, role, content, state, at)
      order by v.n
      returning id, seq),
    generation as (
      insert into generations (id, conversation_id, user_id, action, message_id, model_id, settings,
        turn_at, capacity_key, max_running)
      select ${t.generationId}, claimed.id, ${t.userId}, 'send', ${ids.reply}, ${t.modelId},
        ${t.settings ? JSON.stringify(t.settings) : null}::jsonb, ${t.turnAt.toISOString()}::timestamptz,
        ${t.capacityKey}, ${t.maxRunning}
      from claimed
      returning id),
    counted as (
      insert into daily_usage (user_id, day, messages)
      select ${t.userId}, ${utcDay()}, 1 from claimed
      on conflict (user_id, day) do update set messages = daily_usage.messages + 1
      returning 1)
    select added.id, added.seq, (
      select count(*)::int + 1 from generations o
      where o.status = 'queued' and o.capacity_key = ${t.capacityKey}
        and (o.turn_at, o.created_at, o.id) < (${t.turnAt.toISOString()}::timestamptz, now(), ${t.generationId})
    ) as position, (select message_count from claimed) as message_count
    from added order by added.seq`);
  if (rows.length !== 2) return null;
  const row = (id: string, role: "user" | "bot", content: string, at: Date): MessageRow => ({
    id,
    seq: Number(rows.find((r) => r.id === id)?.seq),
    conversationId: t.conversationId,
    role,
    content,
    alternatives: [content],
    alternativeIndex: 0,
    state: role === "user" ? "complete" : "streaming",
    imageUrl: null,
    imagePrompt: null,
    rating: null,
    ratingReason: null,
    ratingExpected: null,
    createdAt: at,
    updatedAt: at,
  });
  return {
    userMessage: row(ids.user, "user", t.content, userAt),
    reply: row(ids.reply, "bot", "", replyAt),
    position: Number(rows[0]?.position ?? 1),
    /** The conversation's message count with both new messages. */
    messageCount: Number(rows[0]?.message_count),
  };
}
