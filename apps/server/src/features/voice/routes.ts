import { type AudioEvent, voiceEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { openSse } from "../../http/sse.ts";
import { type Auth, getViewer } from "../accounts/index.ts";
import { assertCanUseVoice, assertOwns, voiceOff } from "./policy.ts";
import { findConversationVoice, findSpokenMessage, setConversationVoice } from "./queries.ts";
import type { VoiceRatings } from "./rating-queries.ts";
import type { VoiceService } from "./service.ts";
import { spokenText } from "./text.ts";

export interface VoiceRouteDeps {
  db: Db;
  auth: Auth;
  voice: VoiceService;
  ratings: VoiceRatings;
}

/**
 * The voice endpoints (`voiceEndpoints`). Voices and samples are open; a conversation's voice,
 * Listen and Rate voice quality need TTS (policy.ts) and the conversation's ownership.
 */
export async function voiceRoutes(app: FastifyInstance, deps: VoiceRouteDeps) {
  const { db, voice } = deps;
  const speaking = () => {
    if (!voice.backend) throw voiceOff();
  };

  route(app, voiceEndpoints.list, async ({ query }) => ({
    voices: await voice.listed(query),
    default_voice_id: await voice.defaultVoiceId(),
    enabled: voice.backend !== null,
  }));

  route(app, voiceEndpoints.sample, async ({ query, reply }) => {
    speaking();
    if (!(await voice.hasVoice(query.voice))) throw new HttpError(404, "notFound", "No such voice.");
    const sample = await voice.sample(query.voice);
    return reply
      .header("content-type", sample.contentType)
      .header("cache-control", "public, max-age=86400")
      .send(sample.audio);
  });

  route(app, voiceEndpoints.setConversationVoice, async ({ req, params, body }) => {
    const viewer = assertCanUseVoice(await getViewer(deps.auth, req));
    assertOwns(viewer, await findConversationVoice(db, params.id), "conversation");
    speaking();
    if (body.voice_id !== null && !(await voice.hasVoice(body.voice_id))) {
      throw new HttpError(400, "invalidRequest", "This server has no such voice.", {
        issues: [{ path: "voice_id", message: "No such voice" }],
      });
    }
    if (!(await setConversationVoice(db, params.id, body.voice_id))) {
      throw new HttpError(404, "notFound", "No such conversation.");
    }
    return { conversation_id: params.id, voice_id: body.voice_id };
  });

  route(app, voiceEndpoints.messageAudio, async ({ req, reply, params, query }) => {
    const viewer = assertCanUseVoice(await getViewer(deps.auth, req));
    const message = await findSpokenMessage(db, params.id);
    assertOwns(viewer, message, "message");
    speaking();
    if (message.role !== "bot") {
      throw new HttpError(400, "invalidRequest", "Only the character's messages can be spoken.");
    }
    if (message.state === "streaming") {
      throw new HttpError(409, "conflict", "This reply is still being written. Listen when it is done.");
    }
    const text = spokenText(message.content, { skipActions: query.skip_actions });
    if (!text) throw new HttpError(400, "invalidRequest", "This message has no words to speak.");
    const voiceId = await voice.resolve(message.voiceId);
    if (!voiceId) throw voiceOff();
    // The head goes now, not with the first audio: the client knows Listen was accepted.
    const out = openSse<AudioEvent>(reply, { flushHeaders: true });
    try {
      const onError = (err: unknown) =>
        req.log.warn({ err, message: message.id, voice: voiceId }, "speech failed");
      for await (const event of voice.speak({ id: message.id, text }, voiceId, out.signal, onError)) {
        if (out.signal.aborted) break;
        out.send(event);
      }
    } catch (err) {
      req.log.error({ err, message: message.id }, "speech failed");
      if (!out.signal.aborted)
        out.send({ type: "error", code: "internal", message: "The voice could not speak." });
    } finally {
      out.end();
    }
    return reply;
  });

  route(app, voiceEndpoints.rateVoice, async ({ req, params, body }) => {
    const viewer = assertCanUseVoice(await getViewer(deps.auth, req));
    const message = await findSpokenMessage(db, params.id);
    assertOwns(viewer, message, "message");
    if (message.role !== "bot") {
      throw new HttpError(400, "invalidRequest", "Only the character's messages have a voice to rate.");
    }
    const voiceId = body.voice_id ?? (await voice.resolve(message.voiceId));
    if (!voiceId) throw voiceOff();
    await deps.ratings.record({
      userId: viewer.id,
      messageId: message.id,
      conversationId: message.conversationId,
      characterId: message.characterId,
      voiceId,
      rating: body.rating,
    });
  });
}
