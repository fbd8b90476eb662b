import type { GenerationEvent } from "@hearth/contract";
import type { Db } from "../../../db/client.ts";
import type { EventBus } from "../../../ports/bus.ts";
import { toMessage } from "../mappers.ts";
import { findConversation, findMessage, purgeGuestConversations } from "../queries.ts";
import type { ConversationRow, GenerationRow } from "../schema.ts";
import { findOrphans, finishGeneration, markMessageInterrupted, releaseConversation } from "./queries.ts";
import { eventStream } from "./streams.ts";

const STALE_HEARTBEAT_MS = 60_000;
const STUCK_IN_QUEUE_MS = 30 * 60_000;
const GUEST_CHAT_TTL_MS = 24 * 60 * 60_000;

/**
 * Finds generations cut off by a crash or restart and closes them: the partial reply stays
 * (marked interrupted), the conversation is unlocked, and waiting clients get a `done`.
 */
export async function recoverOrphans(db: Db, bus: EventBus, opts: { all: boolean }): Promise<number> {
  const now = Date.now();
  const orphans = await findOrphans(db, {
    all: opts.all,
    staleBefore: new Date(now - STALE_HEARTBEAT_MS),
    queuedBefore: new Date(now - STUCK_IN_QUEUE_MS),
  });
  for (const g of orphans) {
    if (g.messageId) await markMessageInterrupted(db, g.messageId);
    await finishGeneration(db, g.id, "interrupted");
    await releaseConversation(db, g.conversationId, g.id);
    const done = await storedDone(db, g, await findConversation(db, g.conversationId));
    // Safe to lose: a client resuming this stream later gets the stored reply instead (routes.ts).
    await bus.append(eventStream(g.id), done).catch(() => {});
  }
  return orphans.length;
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

/** Periodic upkeep: orphaned generations and guests' expired chats. */
export function startUpkeep(db: Db, bus: EventBus, log: (error: unknown) => void): () => void {
  const timer = setInterval(() => {
    recoverOrphans(db, bus, { all: false })
      .then(() => purgeGuestConversations(db, new Date(Date.now() - GUEST_CHAT_TTL_MS)))
      .catch(log);
  }, 15_000);
  timer.unref();
  return () => clearInterval(timer);
}
