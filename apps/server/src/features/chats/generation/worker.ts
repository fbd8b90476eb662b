import type { ErrorCode, GenerationEvent } from "@hearth/contract";
import type { Db } from "../../../db/client.ts";
import { describeError } from "../../../lib/describe-error.ts";
import type { EventBus } from "../../../ports/bus.ts";
import type { EmbeddingBackend } from "../../../ports/embeddings.ts";
import type { LlmBackend, LlmEvent } from "../../../ports/llm.ts";
import { LlmError } from "../../../ports/llm.ts";
import { findViewer, viewerFromUser } from "../../accounts/index.ts";
import type { InferenceService, RegistryEntry } from "../../inference/index.ts";
import type { MemorySite } from "../../memories/index.ts";
import { toMessage } from "../mappers.ts";
import { buildPromptWithin, type HistoryMessage, type PromptMode, PromptTooLongError } from "../prompt.ts";
import { historyWithin, writeReply } from "../queries.ts";
import type { GenerationRow, MessageRow } from "../schema.ts";
import { type AcceptContext, acceptContext } from "./accept-queries.ts";
import { generationBudget, promptCharacter, tooLongMessage } from "./budget.ts";
import { storeFinishedReply } from "./finished-reply-queries.ts";
import { heartbeatWriter } from "./heartbeats.ts";
import { attachedBooks, gatherPromptContext } from "./prompt-context.ts";
import { finishGeneration, type PromptRecord, recordPrompt, releaseConversation } from "./queries.ts";
import { closeInterrupted } from "./recovery.ts";
import { streamingTextWriter } from "./reply-writer.ts";
import type { RunEnd } from "./scheduler.ts";
import { MEMBER_KEY_CAPACITY } from "./scheduling.ts";
import { eventStream, stopNotice } from "./streams.ts";
import { TokenPublisher } from "./token-publisher.ts";

export interface WorkerDeps {
  db: Db;
  bus: EventBus;
  inference: InferenceService;
  /** Whether the site offers memories (not the partner edition or a flagged build). */
  memorySite: MemorySite;
  /** Where failures the worker survives are reported (ids and causes only, never text). */
  logFailure: (
    context: { generationId: string; conversationId?: string; cause: string },
    what: string,
  ) => void;
  /** After a reply is stored and the conversation released (automatic memory may be due). */
  onReplyDone?: (conversationId: string, permissions: readonly string[]) => Promise<void>;
  /** Memory vectors' embedding model, where they are on (app.ts decides). */
  memoryEmbedder?: EmbeddingBackend | null;
  /** The backend for a member's reply (their own key by their mode, member-model.ts); else the server's. */
  backendFor?: (
    userId: string,
    entry: RegistryEntry,
    memberKey: boolean,
    stored?: { mode: "disabled" | "enabled" | "hybrid"; encryptedKey: string | null },
  ) => Promise<LlmBackend>;
  /** How often the heartbeat is written: a quarter of the dead-worker limit (HEARTH_WORKER_STALE_S). */
  heartbeatMs?: number;
}

const HEARTBEAT_MS = 5000;
/** Tries at a reply before an empty one is stored (see the loop in runGeneration). */
const REPLY_ATTEMPTS = 3;
/**
 * Finished streams stay readable this long for clients that reconnect late; after that a resume
 * answers from the stored reply (routes.ts). Short, because a stream holds every token event:
 * at an hour, the in-process bus held about an hour of all replies' tokens (the 25-minute soak's
 * heap grew by some 500 MB, docs/PERFORMANCE.md), and Redis as much.
 */
const STREAM_TTL_S = 120;

/**
 * Runs one generation a worker has claimed (scheduler.ts): prompt, model, tokens to the bus,
 * the reply to the database. `interrupt` (a drain's deadline) ends it as interrupted, with
 * everything generated so far kept. `handoff`: what the reply's accept read, when this process
 * claimed the reply right after it (then it is not read again).
 */
export async function runGeneration(
  deps: WorkerDeps,
  gen: GenerationRow,
  interrupt?: AbortSignal,
  handoff?: AcceptContext,
): Promise<RunEnd | undefined> {
  const { db, bus } = deps;
  const generationId = gen.id;
  const publish = (event: GenerationEvent) => bus.append(eventStream(generationId), event);

  const stop = new AbortController();
  const report = (what: string) => (error: unknown) =>
    deps.logFailure({ generationId, conversationId: gen.conversationId, cause: describeError(error) }, what);
  const stopBeating = beatWhileRunning(deps, generationId);
  const watching = watchForStop(bus, generationId, stop);
  const onInterrupt = () => stop.abort();
  interrupt?.addEventListener("abort", onInterrupt, { once: true });
  // Tokens go to the bus at once; the text is stored in the process's batches (decision 015).
  const writer = streamingTextWriter(db);
  writer.onError = processWide(deps, "could not store streaming replies (kept for the next batch)");
  let text = "";
  let continued = "";
  let target: MessageRow | null = null;
  /** What the prompt cut and held, once built; stored with the reply's end, however it ends. */
  let promptRecord: PromptRecord | null = null;
  const keepReport = async () => {
    if (promptRecord)
      await recordPrompt(db, generationId, promptRecord).catch(
        report("could not record the prompt's report"),
      );
  };
  try {
    // Every round trip here is first-token time. The same one-statement read as the accept
    // (conversation, live character, persona, the member's model setting, and its owner, whose
    // reply this is and whose permissions apply), or the accept's own when it handed it over.
    const context = handoff ?? (await acceptContext(db, gen.conversationId));
    if (!context) throw new LlmError("This conversation no longer exists.", "bad_request");
    const viewer =
      context.owner.id === gen.userId ? viewerFromUser(context.owner) : await findViewer(db, gen.userId);
    const { conversation, character, persona } = context;
    if (!character || !viewer) throw new LlmError("The character or the account is gone.", "bad_request");
    // Read while the backend is chosen and the history read (only a chat with books has any).
    const attached = context.hasAttachedBooks ? attachedBooks(db, conversation.id) : Promise.resolve([]);

    const entry = deps.inference.entry(gen.modelId ?? "") ?? deps.inference.defaultEntry;
    const backend = deps.backendFor
      ? await deps.backendFor(gen.userId, entry, gen.capacityKey === MEMBER_KEY_CAPACITY.key, {
          mode: context.llmMode,
          encryptedKey: context.llmKeyEncrypted,
        })
      : await deps.inference.backend(entry.id);
    const { window: budget, sampling } = generationBudget(
      viewer.permissions,
      entry,
      backend.info().contextSize,
      gen.settings,
    );
    const countTokens = backend.tokenCounter();

    const recent = await historyWithin(db, conversation.id, budget, countTokens);
    target = gen.messageId ? (recent.find((m) => m.id === gen.messageId) ?? null) : null;
    const mode: PromptMode =
      gen.action === "continue" ? "continue" : gen.action === "autopilot" ? "autopilot" : "reply";
    // The reply being (re)written is not part of its own prompt, except when it is continued.
    const upTo = target ? recent.indexOf(target) + (mode === "continue" ? 1 : 0) : recent.length;
    const history: HistoryMessage[] = recent
      .slice(0, upTo)
      .map((m) => ({ id: m.id, role: m.role, content: m.content }));
    continued = mode === "continue" && target ? target.content : "";

    const gathered = await gatherPromptContext(db, deps.memorySite, {
      conversationId: conversation.id,
      character,
      attached: await attached,
      hasMemories: context.hasMemories,
      permissions: viewer.permissions,
      history,
      promptTokens: budget - sampling.maxTokens,
      countTokens,
      embedder: deps.memoryEmbedder,
      onVectorError: report("memory vectors failed; recalled by keywords"),
    });
    const prompt = buildPromptWithin(
      {
        character: promptCharacter(character),
        persona,
        history,
        mode,
        contextTokens: budget,
        replyTokens: sampling.maxTokens,
        countTokens,
        context: gathered.context,
      },
      (turns) => backend.countPromptTokens(turns),
    );
    // Messages before the cut point that the prompt left out (older ones were never read).
    const before = conversation.messageCount - (recent.length - upTo);
    // The report ("Why this reply?") is stored with the reply's end, in the same statement.
    promptRecord = {
      trims: prompt.trims,
      report: {
        persona_name: persona.name,
        memories: gathered.memories.slice(0, prompt.memoriesKept),
        lore: gathered.lore.map((e) => ({
          id: e.id,
          name: e.name,
          position: e.position,
          reason: e.reason,
          from_character: e.fromCharacter,
        })),
        history_messages: prompt.historyMessages,
        history_left_out: Math.max(0, before - prompt.historyMessages),
        prompt_tokens: prompt.promptTokens,
        context_tokens: budget,
        trims: prompt.trims,
      },
    };

    const tokens = new TokenPublisher(publish);
    let finish: "complete" | "stopped" = "complete";
    // A small model sometimes ends its turn at once. The prompt is cached by then, so sampling
    // again costs little; an empty reply is what the person sees only when every try was empty.
    for (let attempt = 1; attempt <= REPLY_ATTEMPTS && finish === "complete" && !text.trim(); attempt++) {
      for await (const event of backend.chat({
        messages: prompt.messages,
        sampling,
        signal: stop.signal,
      }) as AsyncIterable<LlmEvent>) {
        if (event.type === "token") {
          text += event.text;
          tokens.push(event.text);
          if (target) writer.set(target.id, continued + text);
        } else if (event.stats.finishReason === "abort") finish = "stopped";
      }
    }
    await tokens.drain();
    // The model stopped because a drain's deadline came (a reply that had just ended is kept as it is).
    if (finish === "stopped" && interrupt?.aborted) {
      await keepReport();
      await interruptReply(deps, gen, target, continued + text);
      return;
    }

    if (target) await writer.forget(target.id);
    const { stored, ended, lineWaiting } = await storeFinishedReply(db, {
      generationId,
      conversationId: conversation.id,
      status: finish === "stopped" ? "stopped" : "done",
      reply: target ? { messageId: target.id, content: continued + text, state: finish } : null,
      contextStartMessageId: mode === "autopilot" ? undefined : prompt.contextStartMessageId,
      characterId: conversation.characterId,
      prompt: promptRecord,
    });
    if (!ended) {
      // Upkeep took this worker for dead (its heartbeat was late) and closed the reply: its
      // clients already had their `done`; the full text is stored all the same.
      report("a reply outlived its heartbeat and was closed by upkeep")(new Error("closed before it ended"));
      return;
    }
    await publish({
      type: "done",
      message: stored ? toMessage(stored) : null,
      suggestion: mode === "autopilot" ? text.trim() : null,
      context_start_message_id: prompt.contextStartMessageId,
      trims: prompt.trims,
      empty: text.trim() === "",
    });
    if (stored && deps.onReplyDone) {
      await deps
        .onReplyDone(conversation.id, viewer.permissions)
        .catch(report("could not queue automatic memory"));
    }
    return { lineEmpty: !lineWaiting };
  } catch (error) {
    await keepReport();
    if (interrupt?.aborted) await interruptReply(deps, gen, target, continued + text);
    else await failGeneration(deps, gen, target, text, error);
  } finally {
    interrupt?.removeEventListener("abort", onInterrupt);
    stopBeating();
    stop.abort();
    await Promise.all([
      watching,
      bus
        .expire(eventStream(generationId), STREAM_TTL_S)
        .catch(report("could not set the event stream's expiry")),
    ]);
  }
}

/** Joins the process's heartbeats (one statement per interval for all its replies); answers the stop. */
export function beatWhileRunning(
  deps: Pick<WorkerDeps, "db" | "heartbeatMs" | "logFailure">,
  generationId: string,
) {
  const beats = heartbeatWriter(deps.db, deps.heartbeatMs ?? HEARTBEAT_MS);
  beats.onError = processWide(
    deps,
    "heartbeats failed (upkeep may close this process's replies as interrupted)",
  );
  beats.start(generationId);
  return () => beats.stop(generationId);
}

/** A failure of a batch this process writes for all its replies (no one generation's). */
export function processWide(deps: Pick<WorkerDeps, "logFailure">, what: string) {
  return (error: unknown) =>
    deps.logFailure({ generationId: "(this process's replies)", cause: describeError(error) }, what);
}

/** A stop request may arrive at any process; it reaches the worker as the bus's notice. */
export async function watchForStop(
  bus: EventBus,
  generationId: string,
  stop: AbortController,
): Promise<void> {
  try {
    if (await bus.watch(stopNotice(generationId), stop.signal)) stop.abort();
  } catch {
    // The bus went away: generation continues without remote stop.
  }
}

/**
 * A drain's deadline cut the reply off: closed as interrupted the way upkeep closes an orphan
 * (recovery.ts), its stored text extended to everything generated, and its clients get the `done`.
 */
async function interruptReply(
  deps: WorkerDeps,
  gen: GenerationRow,
  target: MessageRow | null,
  content: string,
) {
  // No batch may land after the close; the close itself stores the whole text.
  if (target) await streamingTextWriter(deps.db).forget(target.id);
  await closeInterrupted(deps.db, deps.bus, gen, target ? content : null).catch((error) =>
    deps.logFailure(
      { generationId: gen.id, conversationId: gen.conversationId, cause: describeError(error) },
      "could not close an interrupted reply (upkeep will)",
    ),
  );
}

async function failGeneration(
  deps: WorkerDeps,
  gen: GenerationRow,
  target: MessageRow | null,
  text: string,
  error: unknown,
) {
  const { db, bus } = deps;
  const { code, message } = failureOf(error);
  const context = { generationId: gen.id, conversationId: gen.conversationId };
  deps.logFailure({ ...context, cause: describeError(error) }, `generation failed (${code})`);
  const report = (what: string) => (cause: unknown) =>
    deps.logFailure({ ...context, cause: describeError(cause) }, what);
  // What was generated stays; the message is marked failed so the client offers Resubmit.
  if (target) {
    await streamingTextWriter(db).forget(target.id);
    await writeReply(db, target.id, (gen.action === "continue" ? target.content : "") + text, "failed").catch(
      report("could not mark the failed reply"),
    );
  }
  await finishGeneration(db, gen.id, "failed", code).catch(report("could not record the failure"));
  await releaseConversation(db, gen.conversationId, gen.id).catch(
    report("could not unlock the conversation"),
  );
  await bus
    .append(eventStream(gen.id), { type: "error", code, message } satisfies GenerationEvent)
    .catch(report("could not tell the client about the failure"));
}

/** What the user is told when a generation fails. */
function failureOf(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof PromptTooLongError) return { code: "messageTooLong", message: tooLongMessage(error) };
  if (error instanceof LlmError) return { code: "unavailable", message: error.message };
  return { code: "unavailable", message: "The model failed while writing this reply. Please try again." };
}
