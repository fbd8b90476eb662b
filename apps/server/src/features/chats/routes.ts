import { chatEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type Auth, requireViewer } from "../accounts/index.ts";
import { assertCreatorNotBlocked } from "../blocking/index.ts";
import { assertCanUseVoice } from "../voice/index.ts";
import { toMessage } from "./mappers.ts";
import { assertOwnsConversation, chattable } from "./policy.ts";
import {
  deleteConversation,
  findConversation,
  findMessage,
  listConversations,
  messagePage,
  selectAlternative,
  updateConversation,
} from "./queries.ts";
import type { ChatService } from "./service.ts";

export async function chatRoutes(
  app: FastifyInstance,
  { db, auth, chats, edition }: { db: Db; auth: Auth; chats: ChatService; edition: Config["edition"] },
) {
  // Every route here is for a signed-in viewer (guests too): checked before the input is read,
  // so a signed-out caller hears 401 whatever it sent. The viewer is resolved once per request.
  app.addHook("preHandler", async (req) => {
    await requireViewer(auth, req);
  });

  route(app, chatEndpoints.create, async ({ req, body }) => {
    const viewer = await requireViewer(auth, req);
    return chats.startConversation(viewer, {
      characterId: body.character_id,
      userPersonaId: body.user_persona_id ?? null,
    });
  });

  route(app, chatEndpoints.list, async ({ req, query }) => {
    const viewer = await requireViewer(auth, req);
    const page = await listConversations(db, viewer.id, { limit: query.limit, lastId: query.last_id });
    return { conversations: await chats.withCards(page.rows), is_last_id: page.isLast };
  });

  route(app, chatEndpoints.listForCharacter, async ({ req, params, query }) => {
    const viewer = await requireViewer(auth, req);
    await chattable(db, viewer, params.id, edition);
    const page = await listConversations(db, viewer.id, {
      limit: query.limit,
      lastId: query.last_id,
      characterId: params.id,
    });
    return { conversations: await chats.withCards(page.rows), is_last_id: page.isLast };
  });

  route(app, chatEndpoints.get, async ({ req, params }) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, params.id);
    assertOwnsConversation(viewer, conversation);
    const full = await chats.withCard(conversation);
    // Reading a chat with a blocked creator's bot answers blockedBotCreator, so the chat screen
    // shows the Unblock Creator button instead of a chat that cannot continue.
    await assertCreatorNotBlocked(db, viewer, full.character.creator_user_id);
    return full;
  });

  route(app, chatEndpoints.update, async ({ req, params, body: change }) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, params.id);
    assertOwnsConversation(viewer, conversation);
    // A chat whose character was deleted cannot be changed (nor read): 404 before any write.
    await chats.withCard(conversation);
    await chats.assertOwnPersona(viewer, change.user_persona_id);
    // A chat's voice is the voice feature's (TTS only, PUT /api/conversations/{id}/voice checks
    // the id); here too it needs TTS, so this older way in is no way around the plan.
    if (change.voiceId !== undefined) assertCanUseVoice(viewer);
    const updated = await updateConversation(db, conversation.id, {
      ...(change.label !== undefined && { label: change.label }),
      ...(change.user_persona_id !== undefined && { userPersonaId: change.user_persona_id }),
      ...(change.voiceId !== undefined && { voiceId: change.voiceId }),
    });
    // Deleted meanwhile.
    if (!updated) throw notFound("No such conversation.");
    return chats.withCard(updated);
  });

  route(app, chatEndpoints.remove, async ({ req, params }) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, params.id);
    assertOwnsConversation(viewer, conversation);
    await deleteConversation(db, conversation.id);
  });

  route(app, chatEndpoints.messages, async ({ req, params, query }) => {
    const viewer = await requireViewer(auth, req);
    const conversation = await findConversation(db, params.id);
    assertOwnsConversation(viewer, conversation);
    const page = await messagePage(db, conversation.id, { limit: query.limit, before: query.before });
    return { messages: page.rows.map(toMessage), has_more: page.hasMore };
  });

  route(app, chatEndpoints.selectAlternative, async ({ req, params, body }) => {
    const viewer = await requireViewer(auth, req);
    const message = await findMessage(db, params.id);
    const conversation = message ? await findConversation(db, message.conversationId) : null;
    assertOwnsConversation(viewer, conversation);
    if (!message) throw notFound("No such message.");
    if (conversation.activeGenerationId) {
      throw new HttpError(409, "conflict", "Wait for the reply being written to finish.");
    }
    const updated = await selectAlternative(db, message.id, body.alternative_index);
    if (!updated) throw new HttpError(400, "invalidRequest", "This message has no such alternative.");
    return toMessage(updated);
  });
}
