import { randomInt } from "node:crypto";
import type { ErrorCode, GenerationEvent } from "@hearth/contract";
import { describeError } from "../../../lib/describe-error.ts";
import { ImageRefusedError } from "../../../ports/images.ts";
import type { ModerationVerdict } from "../../../ports/moderation.ts";
import { findViewer } from "../../accounts/index.ts";
import { removeMessagesFrom } from "../edit-queries.ts";
import { toMessage } from "../mappers.ts";
import { findConversation, findMessage, messagePage, writeReply } from "../queries.ts";
import type { GenerationRow, MessageRow } from "../schema.ts";
import { acceptContext } from "./accept-queries.ts";
import { storeFinishedReply } from "./finished-reply-queries.ts";
import { buildImagePrompt } from "./image-prompt.ts";
import { setMessageImage, storeChatImage } from "./image-queries.ts";
import type { ImageServices } from "./images.ts";
import { finishGeneration, releaseConversation } from "./queries.ts";
import { eventStream } from "./streams.ts";
import { beatWhileRunning, type WorkerDeps, watchForStop } from "./worker.ts";

/** Messages read for a new picture's scene. */
const SCENE_MESSAGES = 6;

export const UNDERAGE_MESSAGE =
  "The image prompt might contain references to underage context, please consider making changes and try again.";
export const GUIDELINES_MESSAGE =
  "Sorry, we cannot display this image as it may violate our content guidelines.";

/** A refusal of the content checks, carried to the client as its own error code. */
class ContentRefusal extends Error {
  constructor(readonly code: "imagePromptUnderage" | "imageContentGuidelines") {
    super(code === "imagePromptUnderage" ? UNDERAGE_MESSAGE : GUIDELINES_MESSAGE);
  }
}

/** A prompt the checks refuse: underage (`imagePromptUnderage`), anything else (`imageContentGuidelines`). */
export function promptRefusal(
  verdict: ModerationVerdict,
): "imagePromptUnderage" | "imageContentGuidelines" | null {
  if (!verdict.flagged) return null;
  return verdict.reason === "underage" ? "imagePromptUnderage" : "imageContentGuidelines";
}

/**
 * Makes the picture of one image generation the line handed this worker: the prompt (the
 * message's own after an edit, else from the character's appearance and the recent chat),
 * checked; the image backend; the picture checked; then stored and put on the message, which
 * `done` carries. A refused prompt or picture is never stored: a new message is removed again,
 * an edited one keeps its earlier picture.
 */
export async function runImageGeneration(
  deps: WorkerDeps & { images: ImageServices },
  gen: GenerationRow,
  interrupt?: AbortSignal,
): Promise<void> {
  const { db, bus, images } = deps;
  const publish = (event: GenerationEvent) => bus.append(eventStream(gen.id), event);
  const stopBeating = beatWhileRunning(deps, gen.id);
  // Stop (from any process, through the bus) and a drain's deadline both cancel the picture.
  const stop = new AbortController();
  const watching = watchForStop(bus, gen.id, stop);
  const cancel = interrupt ? AbortSignal.any([stop.signal, interrupt]) : stop.signal;
  let target: MessageRow | null = null;
  try {
    const [context, viewer, message] = await Promise.all([
      acceptContext(db, gen.conversationId),
      findViewer(db, gen.userId),
      gen.messageId ? findMessage(db, gen.messageId) : null,
    ]);
    target = message;
    if (!context?.character || !viewer || !target || !images.backend)
      throw new Error("The conversation, its character, the account or the image server is gone.");
    const { character } = context;
    let prompt = target.imagePrompt;
    if (!prompt) {
      const page = await messagePage(db, gen.conversationId, { limit: SCENE_MESSAGES + 1 });
      const recent = page.rows.filter((m) => m.id !== target?.id);
      prompt = buildImagePrompt(character, viewer.id, recent);
    }
    const before = promptRefusal(await images.moderator.checkPrompt(prompt, cancel));
    if (before) throw new ContentRefusal(before);
    const lora = (await images.loraFor?.(character.id)) ?? null;
    let made: Awaited<ReturnType<NonNullable<ImageServices["backend"]>["generate"]>>;
    try {
      made = await images.backend.generate(
        {
          // The word the bot's LoRA was captioned with calls the bot up.
          prompt: lora?.triggerWord ? `${lora.triggerWord}, ${prompt}` : prompt,
          negativePrompt: images.negativePrompt,
          seed: randomInt(0, 2 ** 31),
          width: images.width,
          height: images.height,
          lora: lora ? { name: lora.name, weight: lora.weight } : null,
        },
        cancel,
      );
    } catch (error) {
      if (error instanceof ImageRefusedError) throw new ContentRefusal("imageContentGuidelines");
      throw error;
    }
    const after = await images.moderator.checkImage(made, prompt, cancel);
    if (after.flagged) throw new ContentRefusal("imageContentGuidelines");
    const imageUrl = await storeChatImage(images.storage, gen.conversationId, made);
    await setMessageImage(db, target.id, { imagePrompt: prompt, imageUrl });
    const { stored, ended } = await storeFinishedReply(db, {
      generationId: gen.id,
      conversationId: gen.conversationId,
      status: "done",
      reply: { messageId: target.id, content: target.content, state: "complete" },
      characterId: character.id,
    });
    if (!ended) return;
    await publish({
      type: "done",
      message: stored ? toMessage(stored) : null,
      suggestion: null,
      context_start_message_id: context.conversation.contextStartMessageId,
      trims: [],
      empty: false,
    });
  } catch (error) {
    await failImage(deps, gen, target, stop.signal.aborted && !interrupt?.aborted ? "stopped" : error);
  } finally {
    stopBeating();
    stop.abort();
    await watching;
    await bus.expire(eventStream(gen.id), 3600).catch(() => {});
  }
}

async function failImage(
  deps: WorkerDeps,
  gen: GenerationRow,
  target: MessageRow | null,
  error: unknown,
): Promise<void> {
  const { db, bus } = deps;
  const stopped = error === "stopped";
  const refusal = error instanceof ContentRefusal ? error : null;
  const code: ErrorCode = refusal?.code ?? "unavailable";
  const message = refusal?.message ?? "The image server could not make this picture. Please try again.";
  const report = (what: string) => (cause: unknown) =>
    deps.logFailure(
      { generationId: gen.id, conversationId: gen.conversationId, cause: describeError(cause) },
      what,
    );
  // Ids and the cause only: never the prompt.
  if (!stopped) report(`image generation failed (${code})`)(refusal ? new Error(code) : error);
  let kept: MessageRow | null = null;
  if (target) {
    // A new picture's message goes again; an edited one keeps the picture it had.
    if (target.imageUrl)
      kept = await writeReply(db, target.id, target.content, "complete").catch((cause: unknown) => {
        report("could not restore the picture's message")(cause);
        return null;
      });
    else await removeMessagesFrom(db, target).catch(report("could not clear the picture's message"));
  }
  await finishGeneration(db, gen.id, stopped ? "stopped" : "failed", stopped ? null : code).catch(
    report("could not record the end"),
  );
  await releaseConversation(db, gen.conversationId, gen.id).catch(
    report("could not unlock the conversation"),
  );
  // Stopped: no picture and no error; a remade message is as it was.
  const end: GenerationEvent = stopped
    ? {
        type: "done",
        message: kept ? toMessage(kept) : null,
        suggestion: null,
        context_start_message_id:
          (await findConversation(db, gen.conversationId).catch(() => null))?.contextStartMessageId ?? null,
        trims: [],
        empty: true,
      }
    : { type: "error", code, message };
  await bus.append(eventStream(gen.id), end).catch(report("could not tell the client how the picture ended"));
}
