import type { GenerationEvent } from "@hearth/contract";
import type { Db } from "../../../db/client.ts";
import type { EventBus } from "../../../ports/bus.ts";
import { toMessage } from "../mappers.ts";
import { findConversation, findMessage, purgeGuestConversations } from "../queries.ts";
import type { ConversationRow, GenerationRow } from "../schema.ts";
import { findOrphans, finishGeneration, markMessageInterrupted, releaseConversation } from "./queries.ts";
import { extendFromStream, streamedReply } from "./stream-recovery.ts";
import { eventStream } from "./streams.ts";

const STUCK_IN_QUEUE_MS = 30 * 60_000;
const GUEST_CHAT_TTL_MS = 24 * 60 * 60_000;
const GUEST_PURGE_EVERY_MS = 15_000;

/**
 * Finds generations cut off by a crash or restart and closes them (`all`, after a restart on an
 * in-process queue: every running one; a queued one only when stuck in line for 30 minutes): the partial reply stays
 * (marked interrupted), the conversation is unlocked, and waiting clients get a `done`. Every
 * process runs this; only the one whose UPDATE ends the generation closes it, so an orphan is
 * released and announced once.
 */
export async function recoverOrphans(
  db: Db,
  bus: EventBus,
  opts: { all: boolean; staleMs: number },
): Promise<number> {
  const now = Date.now();
  const orphans = await findOrphans(db, {
    all: opts.all,
    staleBefore: new Date(now - opts.staleMs),
    queuedBefore: new Date(now - STUCK_IN_QUEUE_MS),
  });
  let closed = 0;
  for (const g of orphans) {
    // A reply still waiting in line lost only its wake-up: the line is the database's (decision
    // 016), so it stays there and the line watch wakes a process for it (one queued while a
    // process drained on SIGTERM runs after the restart).
    if (opts.all && g.status === "queued" && g.createdAt.getTime() >= now - STUCK_IN_QUEUE_MS) continue;
    // Tokens reach clients before their batch is stored: the kept stream may hold more (decision 015).
    const streamed = g.messageId ? await streamedReply(bus, g.id).catch(() => null) : null;
    if (await closeInterrupted(db, bus, g, streamed)) closed += 1;
  }
  return closed;
}

/**
 * Closes one generation as interrupted: the reply keeps what was stored (or what its clients saw,
 * when `streamed` holds more), the conversation is unlocked and the stream gets its `done`.
 * False when it had already ended (whoever ended it announced it). Upkeep's orphans and a
 * drain's deadline (worker.ts) both end here.
 */
export async function closeInterrupted(
  db: Db,
  bus: EventBus,
  g: GenerationRow,
  streamed: string | null,
): Promise<boolean> {
  const won = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    if (!(await finishGeneration(tx, g.id, "interrupted"))) return false;
    if (g.messageId) await extendFromStream(tx, g.messageId, streamed);
    if (g.messageId) await markMessageInterrupted(tx, g.messageId);
    await releaseConversation(tx, g.conversationId, g.id);
    return true;
  });
  if (!won) return false;
  const done = await storedDone(db, g, await findConversation(db, g.conversationId));
  // Safe to lose: a client resuming this stream later gets the stored reply instead (routes.ts).
  await bus.append(eventStream(g.id), done).catch(() => {});
  // A dead worker never gave the stream an expiry.
  await bus.expire(eventStream(g.id), 3600).catch(() => {});
  return true;
}

/** The `done` of a finished generation rebuilt from what is stored, once its own events are gone. */
export async function storedDone(
  db: Db,
  g: GenerationRow,
  conversation: ConversationRow | null,
): Promise<GenerationEvent> {
  const message = g.messageId ? await findMessage(db, g.messageId) : null;
  return {
    type: "done",
    message: message ? toMessage(message) : null,
    suggestion: null,
    context_start_message_id: conversation?.contextStartMessageId ?? null,
    trims: g.promptTrims ?? [],
    empty: false,
  };
}

/**
 * Periodic upkeep: orphaned generations and guests' expired chats. It runs a third of the
 * dead-worker limit apart (at least a second), so a dead worker's reply closes soon after.
 */
export function startUpkeep(
  db: Db,
  bus: EventBus,
  staleMs: number,
  log: (error: unknown) => void,
): () => void {
  let purgedAt = 0;
  const timer = setInterval(
    () => {
      recoverOrphans(db, bus, { all: false, staleMs })
        .then(async () => {
          // Expired guest chats need no haste: a sweep every 15 s is plenty.
          if (Date.now() - purgedAt < GUEST_PURGE_EVERY_MS) return;
          purgedAt = Date.now();
          await purgeGuestConversations(db, new Date(purgedAt - GUEST_CHAT_TTL_MS));
        })
        .catch(log);
    },
    Math.max(1000, Math.floor(staleMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
