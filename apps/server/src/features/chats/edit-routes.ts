import { chatEndpoints, type HandlerResult } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { type RouteContext, route } from "../../http/route.ts";
import type { ContentModerator } from "../../ports/moderation.ts";
import { type Auth, requireViewer, type Viewer } from "../accounts/index.ts";
import { cloneConversation, editImagePrompt, editMessageText, removeMessagesFrom } from "./edit-queries.ts";
import { GUIDELINES_MESSAGE, promptRefusal, UNDERAGE_MESSAGE } from "./generation/image-worker.ts";
import { toMessage } from "./mappers.ts";
import { assertOwnsConversation } from "./policy.ts";
import { findConversation, findMessage } from "./queries.ts";
import type { ConversationRow, MessageRow } from "./schema.ts";
import type { ChatService } from "./service.ts";

/** Changing history while a reply is written would race the worker; the user waits or stops it. */
function assertIdle(conversation: ConversationRow) {
  if (conversation.activeGenerationId) {
    throw new HttpError(409, "conflict", "Wait for the reply being written to finish, or stop it.");
  }
}

async function ownedMessage(
  db: Db,
  viewer: Viewer,
  id: string,
): Promise<{ message: MessageRow; conversation: ConversationRow }> {
  const message = await findMessage(db, id);
  const conversation = message ? await findConversation(db, message.conversationId) : null;
  assertOwnsConversation(viewer, conversation);
  if (!message) throw notFound("No such message.");
  return { message, conversation };
}

/** Chat tools: edit a message, remove messages from one onwards, clone a conversation. */
export async function chatEditRoutes(
  app: FastifyInstance,
  {
    db,
    auth,
    chats,
    imageModerator,
  }: { db: Db; auth: Auth; chats: ChatService; imageModerator?: ContentModerator },
) {
  // Signed-in viewers only (guests too), checked before the input is read.
  app.addHook("preHandler", async (req) => {
    await requireViewer(auth, req);
  });

  /** PATCH and PUT /api/messages/{id} are the same edit. */
  const edit = async ({
    req,
    params,
    body: change,
  }: RouteContext<typeof chatEndpoints.editMessage>): Promise<
    HandlerResult<typeof chatEndpoints.editMessage>
  > => {
    const viewer = await requireViewer(auth, req);
    const { message, conversation } = await ownedMessage(db, viewer, params.id);
    assertIdle(conversation);
    if (change.image_prompt !== undefined && !message.imagePrompt)
      throw new HttpError(400, "invalidRequest", "This message has no image prompt to edit.");
    // A prompt the content checks refuse is never stored (its picture would be made from it next).
    if (change.image_prompt !== undefined && imageModerator) {
      const refusal = promptRefusal(await imageModerator.checkPrompt(change.image_prompt));
      if (refusal)
        throw new HttpError(
          400,
          refusal,
          refusal === "imagePromptUnderage" ? UNDERAGE_MESSAGE : GUIDELINES_MESSAGE,
        );
    }
    let updated: MessageRow | null = message;
    if (change.content !== undefined) updated = await editMessageText(db, message.id, change.content);
    if (updated && change.image_prompt !== undefined)
      updated = await editImagePrompt(db, message.id, change.image_prompt);
    // Removed meanwhile (its conversation deleted, say).
    if (!updated) throw notFound("No such message.");
    return toMessage(updated);
  };
  route(app, chatEndpoints.editMessage, edit);
  route<typeof chatEndpoints.replaceMessage>(app, chatEndpoints.replaceMessage, edit);

  route(app, chatEndpoints.removeMessagesFrom, async ({ req, params, query }) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, params.id);
    assertOwnsConversation(viewer, conversation);
    const start = await findMessage(db, query.from);
    if (!start || start.conversationId !== conversation.id)
      throw notFound("No such message in this conversation.");
    assertIdle(conversation);
    // A chat whose character was deleted is not changed: 404, as reading it answers.
    await chats.withCard(conversation);
    const result = await removeMessagesFrom(db, start);
    if (!result.conversation) throw notFound("No such conversation.");
    return { removed: result.removed, conversation: await chats.withCard(result.conversation) };
  });

  route(app, chatEndpoints.clone, async ({ req, params, body }) => {
    const viewer = await requireViewer(auth, req);
    const source = await findConversation(db, params.id);
    assertOwnsConversation(viewer, source);
    assertIdle(source);
    await chats.withCard(source);
    let upToSeq: number | null = null;
    if (body.mode === "partial") {
      const last = body.up_to_message_id ? await findMessage(db, body.up_to_message_id) : null;
      if (!last || last.conversationId !== source.id) throw notFound("No such message in this conversation.");
      upToSeq = last.seq;
    }
    const clone = await cloneConversation(db, source, { label: body.label, upToSeq });
    return { conversation: await chats.withCard(clone) };
  });
}
