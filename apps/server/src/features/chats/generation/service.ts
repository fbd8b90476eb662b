import { randomUUID } from "node:crypto";
import type { GenerateRequest, GenerationEvent, Message } from "@hearth/contract";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http/errors.ts";
import type { EventBus } from "../../../ports/bus.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import { storedDefaultModel, type Viewer } from "../../accounts/index.ts";
import { type InferenceService, resolveModelChoice } from "../../inference/index.ts";
import { WaitingRoom } from "../../waiting-room/index.ts";
import { toMessage } from "../mappers.ts";
import { assertOwnsConversation, chattable } from "../policy.ts";
import {
  addAlternative,
  appendMessage,
  findConversation,
  findMessage,
  lastMessage,
  writeReply,
} from "../queries.ts";
import type { MessageRow } from "../schema.ts";
import { assertMessageFits } from "./budget.ts";
import { assertMayGenerate } from "./policy.ts";
import { claimConversation, countMessageSent, createGeneration, releaseConversation } from "./queries.ts";
import { eventStream } from "./streams.ts";

export const GENERATE_JOB = "generate";

export interface GenerationDeps {
  db: Db;
  config: Config;
  queue: JobQueue;
  bus: EventBus;
  inference: InferenceService;
}

export interface StartedGeneration {
  generationId: string;
  userMessage: Message | null;
  messageId: string | null;
}

/** Lower runs first: I'm All In's priority queue, then other subscribers, then free, then guests. */
function priorityOf(viewer: Viewer): number {
  if (viewer.permissions.includes("priority_queue")) return 1;
  if (viewer.permissions.includes("skip_waiting_room")) return 3;
  return viewer.isGuest ? 10 : 5;
}

/** Starting generations: the request side of the pipeline (the worker is worker.ts). */
export class GenerationService {
  private room: WaitingRoom;

  constructor(private deps: GenerationDeps) {
    this.room = new WaitingRoom({ db: deps.db, capacity: deps.config.waitingRoomCapacity });
  }

  /**
   * Persists the turn, claims the conversation and enqueues the generation: the request never
   * generates itself. A crash after this point loses nothing the user wrote.
   */
  async start(viewer: Viewer, req: GenerateRequest): Promise<StartedGeneration> {
    const { deps } = this;
    const { db } = deps;
    const conversation = await findConversation(db, req.conversation_id);
    assertOwnsConversation(viewer, conversation);
    const character = await chattable(db, viewer, conversation.characterId, deps.config.edition);
    if (req.type === "image") {
      if (!viewer.permissions.includes("conversation_images")) {
        throw new HttpError(
          403,
          "forbidden",
          "Conversation images need the True Supporter or I'm All In plan.",
        );
      }
      throw new HttpError(400, "invalidRequest", "Image generation is not set up on this server yet.");
    }
    if (req.action === "send" && !req.content)
      throw new HttpError(400, "invalidRequest", "content: Write something first");
    await assertMayGenerate(db, deps.config, viewer, req.action !== "autopilot");
    // The waiting room (issue 15): admitted, or chatting with their own bot or in a new chat.
    await this.room.assertAdmitted(viewer, {
      ownerUserId: conversation.userId,
      messageCount: conversation.messageCount,
      creatorUserId: character.creatorUserId,
    });
    // No choice on this device (or one no longer offered): the member's default from the Settings
    // page while it is offered to them, else the server's.
    const memberDefault = (await storedDefaultModel(db, viewer.id)) ?? undefined;
    const model = resolveModelChoice(deps.inference.registry, viewer, req.model_id, memberDefault);
    const allowedSettings = viewer.permissions.includes("generation_settings") ? req.settings : undefined;
    if (req.action === "send" && req.content) {
      // A model that cannot load is reported by the worker, with the message kept.
      const backend = await deps.inference.backend(model.id).catch(() => null);
      if (backend)
        await assertMessageFits(
          db,
          viewer,
          conversation,
          character,
          { entry: model, backend },
          req.content,
          allowedSettings,
        );
    }

    const last = await lastMessage(db, conversation.id);
    const target = await targetOf(db, req, last);
    const generationId = randomUUID();
    if (!(await claimConversation(db, conversation.id, generationId))) {
      throw new HttpError(
        409,
        "conflict",
        "A reply is already being written in this chat. Wait for it or stop it.",
      );
    }
    try {
      let userMessage: MessageRow | null = null;
      let reply: MessageRow | null = null;
      if (req.action === "send") {
        userMessage = await appendMessage(db, {
          conversationId: conversation.id,
          role: "user",
          content: req.content ?? "",
        });
        reply = await appendMessage(db, {
          conversationId: conversation.id,
          role: "bot",
          content: "",
          state: "streaming",
        });
      } else if (req.action === "regenerate") {
        reply = await addAlternative(db, (target as MessageRow).id);
      } else if (req.action === "continue") {
        reply = await writeReply(db, (target as MessageRow).id, (target as MessageRow).content, "streaming");
      } else if (req.action === "resubmit") {
        // After an error: a failed or cut-off reply is written again in place, a good one gets a new
        // alternative (never overwritten), and a lone user message gets its reply.
        if (!target) {
          reply = await appendMessage(db, {
            conversationId: conversation.id,
            role: "bot",
            content: "",
            state: "streaming",
          });
        } else if (target.state === "failed" || target.state === "interrupted") {
          reply = await writeReply(db, target.id, "", "streaming");
        } else {
          reply = await addAlternative(db, target.id);
        }
      }
      await createGeneration(db, {
        id: generationId,
        conversationId: conversation.id,
        userId: viewer.id,
        action: req.action,
        messageId: reply?.id ?? null,
        modelId: model.id,
        settings: (allowedSettings ?? null) as Record<string, number> | null,
      });
      if (req.action !== "autopilot") await countMessageSent(db, viewer.id);
      const started: GenerationEvent = {
        type: "started",
        generation_id: generationId,
        user_message: userMessage ? toMessage(userMessage) : null,
        message_id: reply?.id ?? null,
        action: req.action,
        base_content: req.action === "continue" ? (target?.content ?? "") : "",
      };
      await deps.bus.append(eventStream(generationId), started);
      await deps.queue.enqueue(
        GENERATE_JOB,
        { generationId },
        { jobId: generationId, priority: priorityOf(viewer) },
      );
      return { generationId, userMessage: started.user_message, messageId: started.message_id };
    } catch (error) {
      await releaseConversation(db, conversation.id, generationId);
      throw error;
    }
  }
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
  if (target.role !== "bot" || target.id !== last?.id) {
    throw new HttpError(
      400,
      "invalidRequest",
      `Only the latest reply can be ${req.action === "continue" ? "continued" : "regenerated"}.`,
    );
  }
  return target;
}
