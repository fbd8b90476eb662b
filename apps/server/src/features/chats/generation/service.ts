import { randomUUID } from "node:crypto";
import type { GenerateRequest, GenerationEvent, Message } from "@hearth/contract";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http/errors.ts";
import type { EventBus } from "../../../ports/bus.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import type { Viewer } from "../../accounts/index.ts";
import { type InferenceService, resolveModelChoice } from "../../inference/index.ts";
import { WaitingRoom } from "../../waiting-room/index.ts";
import { toMessage } from "../mappers.ts";
import { assertChattable, assertOwnsConversation } from "../policy.ts";
import { addAlternative, appendMessage, findMessage, lastMessage, writeReply } from "../queries.ts";
import type { MessageRow } from "../schema.ts";
import { type AcceptContext, acceptContext, storeSend } from "./accept-queries.ts";
import { assertMessageFits, countingBackend } from "./budget.ts";
import { assertMayMakeImages } from "./image-policy.ts";
import { GUIDELINES_MESSAGE, promptRefusal, UNDERAGE_MESSAGE } from "./image-worker.ts";
import { type ImageServices, imageCapacity } from "./images.ts";
import { viaMemberKey } from "./member-model.ts";
import { assertMayGenerate } from "./policy.ts";
import { claimConversation, countMessageSent, createGeneration, releaseConversation } from "./queries.ts";
import { lineBusy } from "./scheduler-queries.ts";
import { capacityOf, MEMBER_KEY_CAPACITY, placeInLine } from "./scheduling.ts";
import { eventStream } from "./streams.ts";

export const GENERATE_JOB = "generate";

export interface GenerationDeps {
  db: Db;
  config: Config;
  queue: JobQueue;
  bus: EventBus;
  inference: InferenceService;
  /**
   * This process's own line, when it runs replies: a claim pass at once; answers whether it took
   * that reply (then no other process needs waking for it). `handoff` is what the accept read, as
   * it stands after the store: the worker that takes the reply in this pass starts from it
   * instead of reading it again (one round trip less before the first token).
   */
  wakeHere?: (generationId: string, handoff?: AcceptContext) => Promise<boolean>;
  /** Image generation (issue 16); absent or without a backend: the Image button's request is refused plainly. */
  images?: ImageServices;
  /** Where a lost wake-up is reported (the line's periodic look still finds the reply). */
  logWakeFailure?: (error: unknown) => void;
}

export interface StartedGeneration {
  generationId: string;
  userMessage: Message | null;
  messageId: string | null;
  /** The capacity it waits for, and that capacity's slots (for its place in line). */
  capacityKey: string;
  slots: number;
  /** Its place in line when it was stored (a send's one statement counts it), else null. */
  position: number | null;
  /** The `started` event as published, and its bus id: the request sends it without reading the bus. */
  started: { event: GenerationEvent; id: string };
  /**
   * Wakes the line for it: the caller calls it once it has written `started` (on PGlite the claim
   * and the worker's first reads run on this thread and would otherwise go before the answer).
   */
  wake: () => void;
}

/** Starting generations: the request side of the pipeline (the worker is worker.ts). */
export class GenerationService {
  private room: WaitingRoom;

  constructor(private deps: GenerationDeps) {
    this.room = new WaitingRoom({
      db: deps.db,
      capacity: deps.config.waitingRoomCapacity,
      timing: deps.config.product.waitingRoom,
    });
  }

  /**
   * Persists the turn, claims the conversation and enqueues the generation: the request never
   * generates itself. A crash after this point loses nothing the user wrote.
   */
  async start(
    viewer: Viewer,
    req: GenerateRequest,
    /** The same read, begun before the viewer was known (routes.ts); checked here like any other. */
    contextRead?: Promise<AcceptContext | null>,
  ): Promise<StartedGeneration> {
    const { deps } = this;
    const { db } = deps;
    // One read for every check below (accept-queries.ts); the same rules, in the same order.
    const found = await (contextRead ?? acceptContext(db, req.conversation_id));
    assertOwnsConversation(viewer, found?.conversation ?? null);
    const context = found as NonNullable<typeof found>;
    const { conversation, character, persona } = context;
    assertChattable(viewer, character, context.creatorBlocked, deps.config.edition);
    if (req.type === "image") return this.startImage(viewer, req, context);
    if (req.action === "send" && !req.content)
      throw new HttpError(400, "invalidRequest", "content: Write something first");
    assertMayGenerate(deps.config, viewer, req.action !== "autopilot", context.sentToday ?? 0);
    // The waiting room (issue 15): admitted, or chatting with their own bot or in a new chat.
    await this.room.assertAdmitted(viewer, {
      ownerUserId: conversation.userId,
      messageCount: conversation.messageCount,
      creatorUserId: character.creatorUserId,
    });
    // No choice on this device (or one no longer offered): the member's default from the Settings
    // page while it is offered to them, else the server's.
    const memberDefault = context.defaultModelId ?? undefined;
    const model = resolveModelChoice(deps.inference.registry, viewer, req.model_id, memberDefault);
    const allowedSettings = viewer.permissions.includes("generation_settings") ? req.settings : undefined;
    if (req.action === "send" && req.content) {
      // A model that cannot load is reported by the worker, with the message kept.
      const backend = await countingBackend(deps.inference, model);
      if (backend)
        assertMessageFits(
          persona,
          viewer,
          character,
          { entry: model, backend },
          req.content,
          allowedSettings,
        );
    }

    // A send (or autopilot) works on no earlier message, so it reads none.
    const target =
      req.action === "send" || req.action === "autopilot"
        ? null
        : await targetOf(db, req, await lastMessage(db, conversation.id));
    const generationId = randomUUID();
    const place = placeInLine(viewer);
    // A member's own model key takes no slot of the server's (member-model.ts).
    const served = capacityOf(model, deps.config.llm.sequences);
    const ownKey = { mode: context.llmMode ?? "disabled", encryptedKey: context.llmKeyEncrypted ?? null };
    const capacity = (await viaMemberKey(deps.config, ownKey, () => lineBusy(db, served.key)))
      ? MEMBER_KEY_CAPACITY
      : served;
    const settings = (allowedSettings ?? null) as Record<string, number> | null;
    // Its place in the line for the model (scheduling.ts): its plan's head start, its capacity.
    const turnAt = new Date(Date.now() + place.delaySeconds * 1000);
    const conflict = () =>
      new HttpError(
        409,
        "conflict",
        "A reply is already being written in this chat. Wait for it or stop it.",
      );
    let userMessage: MessageRow | null = null;
    let reply: MessageRow | null = null;
    let position: number | null = null;
    // What the accept read, for the worker if this process claims the reply at once: the
    // conversation as the store left it (the worker counts the history it leaves out from it).
    const handoffWith = (messageCount: number): AcceptContext => ({
      ...context,
      conversation: { ...conversation, messageCount, activeGenerationId: generationId },
    });
    let handoff: AcceptContext | undefined;
    if (req.action === "send") {
      // Claim, both messages, the generation and the day's count: one statement (accept-queries.ts).
      const stored = await storeSend(db, {
        conversationId: conversation.id,
        userId: viewer.id,
        generationId,
        content: req.content ?? "",
        modelId: model.id,
        settings,
        turnAt,
        capacityKey: capacity.key,
        maxRunning: place.maxRunning,
      });
      if (!stored) throw conflict();
      ({ userMessage, reply, position } = stored);
      handoff = handoffWith(stored.messageCount);
    } else {
      if (!(await claimConversation(db, conversation.id, generationId))) throw conflict();
      try {
        reply = await writeOtherAction(db, req, conversation.id, target);
        await createGeneration(db, {
          id: generationId,
          conversationId: conversation.id,
          userId: viewer.id,
          action: req.action,
          messageId: reply?.id ?? null,
          modelId: model.id,
          settings,
          turnAt,
          capacityKey: capacity.key,
          maxRunning: place.maxRunning,
        });
        if (req.action !== "autopilot") await countMessageSent(db, viewer.id);
        // A resubmit of a lone user message appended its reply; the other actions add none.
        const appended = req.action === "resubmit" && !target ? 1 : 0;
        handoff = handoffWith(conversation.messageCount + appended);
      } catch (error) {
        await releaseConversation(db, conversation.id, generationId);
        throw error;
      }
    }
    return this.announce(req, conversation.id, generationId, capacity, {
      userMessage,
      reply,
      position,
      target,
      handoff,
    });
  }

  /**
   * A picture (issue 16): the same line, waiting room, daily count and events as a reply. `send`
   * adds a bot message for a new picture; `regenerate` makes the picture of a message with an
   * image prompt again (after its prompt was edited). A prompt the content checks refuse is
   * refused here, before anything is stored.
   */
  private async startImage(
    viewer: Viewer,
    req: GenerateRequest,
    context: NonNullable<Awaited<ReturnType<typeof acceptContext>>>,
  ): Promise<StartedGeneration> {
    const { deps } = this;
    const { db } = deps;
    const { conversation } = context;
    // assertChattable refused a chat whose character is gone.
    const character = context.character as NonNullable<typeof context.character>;
    assertMayMakeImages(viewer, character, deps.images);
    const images = deps.images as ImageServices;
    if (req.action !== "send" && req.action !== "regenerate")
      throw new HttpError(400, "invalidRequest", "A picture can be made (send) or made again (regenerate).");
    assertMayGenerate(deps.config, viewer, true, context.sentToday ?? 0);
    await this.room.assertAdmitted(viewer, {
      ownerUserId: conversation.userId,
      messageCount: conversation.messageCount,
      creatorUserId: character.creatorUserId,
    });
    let target: MessageRow | null = null;
    if (req.action === "regenerate") {
      target = req.message_id
        ? await findMessage(db, req.message_id)
        : await lastMessage(db, conversation.id);
      if (!target || target.conversationId !== conversation.id)
        throw new HttpError(404, "notFound", "No such message.");
      if (target.role !== "bot" || !target.imagePrompt)
        throw new HttpError(
          400,
          "invalidRequest",
          "This message has no image prompt to make a picture from.",
        );
      const refusal = promptRefusal(await images.moderator.checkPrompt(target.imagePrompt));
      if (refusal)
        throw new HttpError(
          400,
          refusal,
          refusal === "imagePromptUnderage" ? UNDERAGE_MESSAGE : GUIDELINES_MESSAGE,
        );
    }
    const generationId = randomUUID();
    const place = placeInLine(viewer);
    const capacity = imageCapacity(images);
    if (!(await claimConversation(db, conversation.id, generationId)))
      throw new HttpError(
        409,
        "conflict",
        "A reply is already being written in this chat. Wait for it or stop it.",
      );
    let reply: MessageRow | null = null;
    try {
      reply = target
        ? await writeReply(db, target.id, target.content, "streaming")
        : await appendMessage(db, {
            conversationId: conversation.id,
            role: "bot",
            content: "",
            state: "streaming",
          });
      await createGeneration(db, {
        id: generationId,
        conversationId: conversation.id,
        userId: viewer.id,
        action: req.action,
        messageId: reply?.id ?? null,
        modelId: null,
        settings: null,
        turnAt: new Date(Date.now() + place.delaySeconds * 1000),
        capacityKey: capacity.key,
        maxRunning: place.maxRunning,
      });
      await countMessageSent(db, viewer.id);
    } catch (error) {
      await releaseConversation(db, conversation.id, generationId);
      throw error;
    }
    return this.announce(req, conversation.id, generationId, capacity, {
      userMessage: null,
      reply,
      position: null,
      target,
    });
  }

  /** `started` on the bus, then the wake-ups: the line decides which worker takes it. */
  private async announce(
    req: GenerateRequest,
    conversationId: string,
    generationId: string,
    capacity: { key: string; limit: number },
    made: {
      userMessage: MessageRow | null;
      reply: MessageRow | null;
      position: number | null;
      target: MessageRow | null;
      handoff?: AcceptContext;
    },
  ): Promise<StartedGeneration> {
    const { deps } = this;
    const { userMessage, reply, position, target, handoff } = made;
    try {
      const started: GenerationEvent = {
        type: "started",
        generation_id: generationId,
        user_message: userMessage ? toMessage(userMessage) : null,
        message_id: reply?.id ?? null,
        action: req.action,
        base_content: req.action === "continue" ? (target?.content ?? "") : "",
      };
      // Held: the request reads the stream from here (routes.ts), with no registration of its own.
      const startedId = await deps.bus.append(eventStream(generationId), started, { hold: true });
      // Wake-ups, after `started` is on the bus (a token must never go before it): the database's
      // line decides which reply a worker takes (scheduler.ts). This process's line first; the
      // queue's, for the other processes, only if it did not take the reply (a queue wake-up is
      // several Redis scripts and a claim elsewhere). Neither holds up the answer: if the queue's
      // is lost, the line's periodic look wakes a worker.
      const wake = () => {
        (deps.wakeHere?.(generationId, handoff) ?? Promise.resolve(false))
          .then((takenHere) =>
            takenHere
              ? undefined
              : deps.queue.enqueue(GENERATE_JOB, { generationId }, { jobId: generationId }),
          )
          .catch((error: unknown) => deps.logWakeFailure?.(error));
      };
      return {
        generationId,
        userMessage: started.user_message,
        messageId: started.message_id,
        capacityKey: capacity.key,
        slots: capacity.limit,
        position,
        started: { event: started, id: startedId },
        wake,
      };
    } catch (error) {
      await releaseConversation(deps.db, conversationId, generationId);
      throw error;
    }
  }
}

/** The reply row a regenerate, continue, resubmit (or none, autopilot) writes into. */
async function writeOtherAction(
  db: Db,
  req: GenerateRequest,
  conversationId: string,
  target: MessageRow | null,
): Promise<MessageRow | null> {
  if (req.action === "regenerate") return addAlternative(db, (target as MessageRow).id);
  if (req.action === "continue")
    return writeReply(db, (target as MessageRow).id, (target as MessageRow).content, "streaming");
  if (req.action !== "resubmit") return null;
  // After an error: a failed or cut-off reply is written again in place, a good one gets a new
  // alternative (never overwritten), and a lone user message gets its reply.
  if (!target) return appendMessage(db, { conversationId, role: "bot", content: "", state: "streaming" });
  if (target.state === "failed" || target.state === "interrupted")
    return writeReply(db, target.id, "", "streaming");
  return addAlternative(db, target.id);
}

/** The bot message an action works on: the last message, which must be the bot's. */
async function targetOf(db: Db, req: GenerateRequest, last: MessageRow | null): Promise<MessageRow | null> {
  if (req.action === "send" || req.action === "autopilot") return null;
  if (req.action === "resubmit") {
    if (!last) throw new HttpError(400, "invalidRequest", "There is nothing to resubmit yet.");
    return last.role === "bot" ? last : null;
  }
  const target = req.message_id ? await findMessage(db, req.message_id) : last;
  if (!target || target.conversationId !== req.conversation_id)
    throw new HttpError(404, "notFound", "No such message.");
  if (req.action === "continue" && target.imagePrompt)
    throw new HttpError(400, "invalidRequest", "A picture cannot be continued; make it again instead.");
  if (target.role !== "bot" || target.id !== last?.id) {
    throw new HttpError(
      400,
      "invalidRequest",
      `Only the latest reply can be ${req.action === "continue" ? "continued" : "regenerated"}.`,
    );
  }
  return target;
}
