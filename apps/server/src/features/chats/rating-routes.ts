import { chatEndpoints, NEGATIVE_MESSAGE_RATING_MAX, ratingReasonsFor } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type Auth, assertNotRestricted, requireViewer } from "../accounts/index.ts";
import { toMessage } from "./mappers.ts";
import { assertOwnsConversation } from "./policy.ts";
import { findConversation, findMessage } from "./queries.ts";
import { rateMessage } from "./rating-queries.ts";

/**
 * Message rating (chat-and-characters §4 "Message rating"): the chat's owner rates a finished bot
 * message once, 1-4, with a reason chip of the set for its kind (text or image) and, for a
 * negative level, what they expected. Someone else's message is a 404 like a missing one.
 */
export async function chatRatingRoutes(app: FastifyInstance, { db, auth }: { db: Db; auth: Auth }) {
  // Signed in (guests too) and not restricted, checked before the input is read.
  app.addHook("preHandler", async (req) => {
    assertNotRestricted(await requireViewer(auth, req));
  });

  route(app, chatEndpoints.rateMessage, async ({ req, params, body }) => {
    const viewer = await requireViewer(auth, req);
    const message = await findMessage(db, params.id);
    const conversation = message ? await findConversation(db, message.conversationId) : null;
    assertOwnsConversation(viewer, conversation);
    if (!message) throw notFound("No such message.");
    if (message.role !== "bot")
      throw new HttpError(400, "invalidRequest", "Only the bot's messages are rated.");
    if (message.state === "streaming") {
      throw new HttpError(409, "conflict", "Wait for the reply to finish before rating it.");
    }
    if (message.rating !== null) throw new HttpError(409, "conflict", "You have already rated this message.");
    const kind = message.imageUrl ? "image" : "text";
    if (body.reason !== undefined && !ratingReasonsFor(kind, body.rating).includes(body.reason)) {
      throw new HttpError(400, "invalidRequest", "Choose one of the reasons offered for this rating.", [
        { path: "reason", message: "Not a reason offered for this rating" },
      ]);
    }
    const expected = body.rating <= NEGATIVE_MESSAGE_RATING_MAX && body.expected ? body.expected : null;
    const rated = await rateMessage(db, message.id, {
      rating: body.rating,
      reason: body.reason ?? null,
      expected,
    });
    if (!rated) throw new HttpError(409, "conflict", "You have already rated this message.");
    return toMessage(rated);
  });
}
