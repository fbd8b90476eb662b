import { conversationClone, messageEdit, removeMessagesQuery } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/auth.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { requireViewer } from "../accounts/viewer.ts";
import { cloneConversation, editImagePrompt, editMessageText, removeMessagesFrom } from "./edit-queries.ts";
import { toMessage } from "./mappers.ts";
import { assertOwnsConversation } from "./policy.ts";
import { findConversation, findMessage } from "./queries.ts";
import type { ConversationRow, MessageRow } from "./schema.ts";
import { withCards } from "./service.ts";

const idParams = z.object({ id: z.string().min(1).max(100) });

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
  { db, auth, storage }: { db: Db; auth: Auth; storage: FileStorage },
) {
  const edit = async (
    req: { params: unknown; body: unknown; headers: Record<string, unknown> } & Parameters<
      typeof requireViewer
    >[1],
  ) => {
    const viewer = await requireViewer(auth, req);
    const { message, conversation } = await ownedMessage(db, viewer, parse(idParams, req.params).id);
    const change = parse(messageEdit, req.body);
    assertIdle(conversation);
    let updated: MessageRow | null = message;
    if (change.content !== undefined) updated = await editMessageText(db, message.id, change.content);
    if (change.image_prompt !== undefined) {
      if (!message.imagePrompt)
        throw new HttpError(400, "invalidRequest", "This message has no image prompt to edit.");
      updated = await editImagePrompt(db, message.id, change.image_prompt);
    }
    return toMessage(updated as MessageRow);
  };
  app.put("/api/messages/:id", edit);
  app.patch("/api/messages/:id", edit);

  app.delete("/api/conversations/:id/messages", async (req) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, parse(idParams, req.params).id);
    assertOwnsConversation(viewer, conversation);
    const { from } = parse(removeMessagesQuery, req.query);
    const start = await findMessage(db, from);
    if (!start || start.conversationId !== conversation.id)
      throw notFound("No such message in this conversation.");
    assertIdle(conversation);
    const result = await removeMessagesFrom(db, start);
    const [full] = await withCards(db, storage, result.conversation ? [result.conversation] : []);
    return { removed: result.removed, conversation: full };
  });

  app.post("/api/conversations/:id/clone", async (req, reply) => {
    const viewer = await requireViewer(auth, req);
    const source = await findConversation(db, parse(idParams, req.params).id);
    assertOwnsConversation(viewer, source);
    const body = parse(conversationClone, req.body);
    assertIdle(source);
    let upToSeq: number | null = null;
    if (body.mode === "partial") {
      const last = await findMessage(db, body.up_to_message_id as string);
      if (!last || last.conversationId !== source.id) throw notFound("No such message in this conversation.");
      upToSeq = last.seq;
    }
    const clone = await cloneConversation(db, source, { label: body.label, upToSeq });
    const [conversation] = await withCards(db, storage, [clone]);
    return reply.status(201).send({ conversation });
  });
}
