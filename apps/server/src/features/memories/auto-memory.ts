import { MEMORIES_PER_CONVERSATION_MAX } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import type { EventBus } from "../../ports/bus.ts";
import type { LlmBackend } from "../../ports/llm.ts";
import type { JobQueue } from "../../ports/queue.ts";
import { findViewer } from "../accounts/index.ts";
import { findCharacter } from "../characters/index.ts";
import { resolvePersonaForPrompt } from "../personas/index.ts";
import {
  extractMemories,
  isNearDuplicate,
  MEMORIES_PER_BATCH,
  memoryPrompt,
  readModelMemories,
  type SourceMessage,
  type WrittenMemory,
} from "./memory-writer.ts";
import { type MemorySite, writesAutomaticMemories } from "./policy.ts";
import {
  advanceProgress,
  conversationForMemory,
  conversationsToBackfill,
  progressOf,
  touchProgress,
  unchangedSince,
  unreadMessages,
} from "./progress-queries.ts";
import { insertMemory, listMemories } from "./queries.ts";

/**
 * Automatic memory (chat-and-characters §6 conversation_memory_auto): every few exchanges a
 * queued job reads the messages it has not read yet and writes short memories of them. It runs
 * at the lowest priority: on the embedded engine its request gives way to any reply (the engine
 * stops it), and it does not start while replies wait in the queue, so it never delays one.
 */

export const AUTO_MEMORY_JOB = "memories-auto";
/** New messages (about three exchanges) before memories are written. */
export const MESSAGES_PER_BATCH = 6;

/** Memories are due with a batch's worth of unread messages, or any at all when a rewrite was asked. */
const isDue = (unread: number, rewrite: boolean) => unread >= MESSAGES_PER_BATCH || (rewrite && unread > 0);
/** The most messages one batch reads. */
const BATCH_MAX = 8;
/** Batches in a row whose model answer held no usable memory before the job stops asking it. */
const MODEL_MISSES = 2;
/** Lower runs first; replies use 0 to 10, so this comes after every one of them. */
const PRIORITY = 100;
const BACKFILL_EVERY_MS = 10 * 60_000;
/** Conversations one backfill sweep looks at. */
const BACKFILL_CONVERSATIONS = 20;

/** The bus stream that says when a conversation's automatic memories changed. */
export const memoryStream = (conversationId: string) => `memories:${conversationId}`;
export interface MemoriesWrittenEvent {
  type: "written";
  count: number;
  throughSeq: number;
}

export interface AutoMemoryDeps {
  db: Db;
  queue: JobQueue;
  bus: EventBus;
  site: MemorySite;
  /** The model that writes memories (the site's default). */
  backend: () => Promise<LlmBackend>;
  /** Replies waiting for the model; memory waits while there are any. */
  repliesWaiting: () => Promise<number>;
  log: (error: unknown, what: string) => void;
}

/** Queues the conversation's memory job (once: a job already waiting for it is not doubled). */
export function queueAutoMemory(deps: Pick<AutoMemoryDeps, "queue">, conversationId: string) {
  return deps.queue.enqueue(
    AUTO_MEMORY_JOB,
    { conversationId },
    { jobId: `memories-${conversationId}`, priority: PRIORITY },
  );
}

/** Thrown when a reply took the model back: the job ends, and the next reply queues it again. */
class GaveWay extends Error {}

/**
 * Writes the memories a conversation is due: batches of unread messages, oldest first, until
 * fewer than a batch are left (any left at all when a rewrite was asked for). An old chat is
 * backfilled in one job, batch by batch, giving way whenever a reply needs the model. Answers
 * the memories written.
 */
export async function runAutoMemory(deps: AutoMemoryDeps, conversationId: string): Promise<number> {
  const { db } = deps;
  const conversation = await conversationForMemory(db, conversationId);
  if (!conversation) return 0;
  const viewer = await findViewer(db, conversation.userId);
  if (!viewer || !writesAutomaticMemories(viewer.permissions, deps.site)) {
    await touchProgress(db, conversationId);
    return 0;
  }
  const character = (await findCharacter(db, conversation.characterId))?.character;
  const persona = await resolvePersonaForPrompt(db, conversation.userId, conversation.personaId);
  const speakers = { user: persona.name, bot: character?.name ?? "Character" };
  const writer = { misses: 0 };

  let written = 0;
  try {
    for (;;) {
      const progress = await progressOf(db, conversationId);
      const unread = await unreadMessages(db, conversationId, progress.throughSeq, BATCH_MAX);
      if (!isDue(unread.length, progress.rewrite)) {
        await touchProgress(db, conversationId);
        break;
      }
      // A greeting before anyone spoke is the card's text, the same in every chat: not a memory.
      const firstUser = unread.findIndex((m) => m.role === "user");
      const sources = progress.throughSeq === 0 && firstUser > 0 ? unread.slice(firstUser) : unread;
      const messages: SourceMessage[] = sources.map((m) => ({
        id: m.id,
        speaker: speakers[m.role],
        content: m.content,
      }));
      const memories = messages.length > 0 ? await writeMemories(deps, messages, writer) : [];
      // The messages changed while the model wrote: what it wrote no longer holds; read them again.
      if (!(await unchangedSince(db, unread))) continue;
      written += await keepNew(db, conversationId, memories);
      const last = unread[unread.length - 1] as (typeof unread)[number];
      const more = (await unreadMessages(db, conversationId, last.seq, 1)).length > 0;
      await advanceProgress(db, conversationId, last.seq, progress.rewrite && more);
    }
  } catch (error) {
    if (!(error instanceof GaveWay)) throw error;
  }
  if (written > 0) {
    const { throughSeq } = await progressOf(db, conversationId);
    await deps.bus
      .append(memoryStream(conversationId), { type: "written", count: written, throughSeq })
      .catch((error) => deps.log(error, "could not announce new memories"));
  }
  return written;
}

/**
 * The model's memories when it writes grounded ones, else the messages' own sentences. A model
 * that missed twice in a row is not asked again in this job (a small one never manages).
 */
async function writeMemories(
  deps: AutoMemoryDeps,
  messages: SourceMessage[],
  writer: { misses: number },
): Promise<WrittenMemory[]> {
  if (writer.misses >= MODEL_MISSES) return extractMemories(messages);
  if ((await deps.repliesWaiting()) > 0) throw new GaveWay();
  let answer = "";
  let finish: string | undefined;
  try {
    const backend = await deps.backend();
    for await (const event of backend.chat({
      messages: memoryPrompt(messages),
      sampling: { maxTokens: 40 * MEMORIES_PER_BATCH, temperature: 0.2, topP: 0.9, topK: 40 },
      background: true,
    })) {
      if (event.type === "token") answer += event.text;
      else finish = event.stats.finishReason;
    }
  } catch (error) {
    // A model that fails here (down, or the batch too long for its window) is not asked again in
    // this job: the messages' own sentences still make memories.
    deps.log(error, "the model could not write memories; they are taken from the messages");
    writer.misses = MODEL_MISSES;
    return extractMemories(messages);
  }
  if (finish === "abort") throw new GaveWay();
  const fromModel = readModelMemories(answer, messages);
  writer.misses = fromModel.length > 0 ? 0 : writer.misses + 1;
  return fromModel.length > 0 ? fromModel : extractMemories(messages);
}

/** Stores the memories that are not already kept (in other words), within the conversation's limit. */
async function keepNew(db: Db, conversationId: string, memories: WrittenMemory[]): Promise<number> {
  if (memories.length === 0) return 0;
  const kept = await listMemories(db, conversationId);
  let room = MEMORIES_PER_CONVERSATION_MAX - kept.length;
  let added = 0;
  for (const m of memories) {
    if (room <= 0) break;
    if (kept.some((k) => isNearDuplicate(k.content, m.content))) continue;
    await insertMemory(db, {
      conversationId,
      content: m.content,
      pinned: false,
      source: "auto",
      messageIds: m.messageIds,
    });
    room--;
    added++;
  }
  return added;
}

/**
 * Starts the job's worker and the backfill: at start and every ten minutes, conversations with
 * unread messages whose owners have automatic memory are queued, a few at a time. Answers a
 * function that stops the backfill.
 */
export function installAutoMemory(deps: AutoMemoryDeps): () => void {
  deps.queue.process<{ conversationId: string }>(
    AUTO_MEMORY_JOB,
    async ({ conversationId }) => {
      await runAutoMemory(deps, conversationId).catch((error) => deps.log(error, "automatic memory failed"));
    },
    { concurrency: 1 },
  );
  const sweep = () => backfill(deps).catch((error) => deps.log(error, "automatic memory backfill failed"));
  void sweep();
  const timer = setInterval(sweep, BACKFILL_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Queues conversations that may have unread messages, checking each owner's plan once. */
export async function backfill(deps: AutoMemoryDeps): Promise<number> {
  const candidates = await conversationsToBackfill(deps.db, MESSAGES_PER_BATCH, BACKFILL_CONVERSATIONS);
  const allowed = new Map<string, boolean>();
  let queued = 0;
  for (const c of candidates) {
    if (!allowed.has(c.userId)) {
      const viewer = await findViewer(deps.db, c.userId);
      allowed.set(c.userId, !!viewer && writesAutomaticMemories(viewer.permissions, deps.site));
    }
    if (allowed.get(c.userId)) {
      await queueAutoMemory(deps, c.id);
      queued++;
    } else await touchProgress(deps.db, c.id);
  }
  return queued;
}

/** After a reply: queue the job when the owner has automatic memory (the job checks the rest). */
export async function afterReply(
  deps: Pick<AutoMemoryDeps, "queue" | "db" | "site">,
  conversationId: string,
  permissions: readonly string[],
): Promise<void> {
  if (!writesAutomaticMemories(permissions, deps.site)) return;
  const { throughSeq, rewrite } = await progressOf(deps.db, conversationId);
  const unread = await unreadMessages(deps.db, conversationId, throughSeq, MESSAGES_PER_BATCH);
  if (isDue(unread.length, rewrite)) {
    await queueAutoMemory(deps, conversationId);
  }
}
