import {
  type ConversationList,
  conversationCreate,
  conversationListQuery,
  conversationUpdate,
  type MessagePage,
  messagePageQuery,
  messageSelectAlternative,
} from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/auth.ts";
import { requireViewer } from "../accounts/viewer.ts";
import { toMessage } from "./mappers.ts";
import { assertOwnsConversation } from "./policy.ts";
import {
  deleteConversation,
  findConversation,
  findMessage,
  listConversations,
  messagePage,
  selectAlternative,
  updateConversation,
} from "./queries.ts";
import { assertOwnPersona, chattableCharacter, startConversation, withCards } from "./service.ts";

const idParams = z.object({ id: z.string().min(1).max(100) });

export async function chatRoutes(
  app: FastifyInstance,
  { db, auth, storage }: { db: Db; auth: Auth; storage: FileStorage },
) {
  app.post("/api/conversations", async (req, reply) => {
    const viewer = await requireViewer(auth, req);
    const body = parse(conversationCreate, req.body);
    const created = await startConversation(db, storage, viewer, {
      characterId: body.character_id,
      userPersonaId: body.user_persona_id ?? null,
    });
    return reply.status(201).send(created);
  });

  app.get("/api/conversations", async (req): Promise<ConversationList> => {
    const viewer = await requireViewer(auth, req);
    const query = parse(conversationListQuery, req.query);
    const page = await listConversations(db, viewer.id, { limit: query.limit, lastId: query.last_id });
    return { conversations: await withCards(db, storage, page.rows), is_last_id: page.isLast };
  });

  app.get("/api/characters/:id/conversations", async (req): Promise<ConversationList> => {
    const viewer = await requireViewer(auth, req);
    const { id } = parse(idParams, req.params);
    await chattableCharacter(db, viewer, id);
    const query = parse(conversationListQuery, req.query);
    const page = await listConversations(db, viewer.id, {
      limit: query.limit,
      lastId: query.last_id,
      characterId: id,
    });
    return { conversations: await withCards(db, storage, page.rows), is_last_id: page.isLast };
  });

  app.get("/api/conversations/:id", async (req) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, parse(idParams, req.params).id);
    assertOwnsConversation(viewer, conversation);
    const [full] = await withCards(db, storage, [conversation]);
    if (!full) throw notFound("This conversation's character no longer exists.");
    return full;
  });

  app.patch("/api/conversations/:id", async (req) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, parse(idParams, req.params).id);
    assertOwnsConversation(viewer, conversation);
    const change = parse(conversationUpdate, req.body);
    await assertOwnPersona(db, viewer, change.user_persona_id);
    const updated = await updateConversation(db, conversation.id, {
      ...(change.label !== undefined && { label: change.label }),
      ...(change.user_persona_id !== undefined && { userPersonaId: change.user_persona_id }),
      ...(change.voiceId !== undefined && { voiceId: change.voiceId }),
    });
    const [full] = await withCards(db, storage, updated ? [updated] : []);
    return full;
  });

  app.delete("/api/conversations/:id", async (req, reply) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, parse(idParams, req.params).id);
    assertOwnsConversation(viewer, conversation);
    await deleteConversation(db, conversation.id);
    return reply.status(204).send();
  });

  app.get("/api/conversations/:id/messages", async (req): Promise<MessagePage> => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, parse(idParams, req.params).id);
    assertOwnsConversation(viewer, conversation);
    const query = parse(messagePageQuery, req.query);
    const page = await messagePage(db, conversation.id, { limit: query.limit, before: query.before });
    return { messages: page.rows.map(toMessage), has_more: page.hasMore };
  });

  app.put("/api/messages/:id/alternative", async (req) => {
    const viewer = await requireViewer(auth, req);
    const message = await findMessage(db, parse(idParams, req.params).id);
    const conversation = message ? await findConversation(db, message.conversationId) : null;
    assertOwnsConversation(viewer, conversation);
    if (!message) throw notFound("No such message.");
    const { alternative_index } = parse(messageSelectAlternative, req.body);
    if (conversation.activeGenerationId) {
      throw new HttpError(409, "conflict", "Wait for the reply being written to finish.");
    }
    const updated = await selectAlternative(db, message.id, alternative_index);
    if (!updated) throw new HttpError(400, "invalidRequest", "This message has no such alternative.");
    return toMessage(updated);
  });
}
