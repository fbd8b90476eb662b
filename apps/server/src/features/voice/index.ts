// The voice feature (issue 16): voices and their samples, a conversation's voice, Listen
// (a bot message spoken sentence by sentence over the speech port, cached in storage) and
// Rate voice quality.
import type { FastifyInstance } from "fastify";
import { EspeakSpeechBackend } from "../../adapters/espeak-speech.ts";
import { OpenAiSpeechBackend } from "../../adapters/openai-speech.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { SpeechBackend } from "../../ports/speech.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/index.ts";
import { productEventRatings, type VoiceRatings } from "./rating-queries.ts";
import { voiceRoutes } from "./routes.ts";
import { VoiceService } from "./service.ts";

export { assertCanUseVoice } from "./policy.ts";
export { VoiceService } from "./service.ts";
export { speechPieces, spokenText } from "./text.ts";

/** The speech backend the configuration names: an OpenAI-compatible server, eSpeak NG, or none. */
export function openSpeechBackend(config: Config): SpeechBackend | null {
  const s = config.speech;
  if (s.backend === "off") return null;
  if (s.backend === "openai") {
    return new OpenAiSpeechBackend({
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
      model: s.model,
      voices: s.voices,
      format: s.format,
    });
  }
  return new EspeakSpeechBackend({ languages: s.languages });
}

export async function installVoice(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    auth: Auth;
    storage: FileStorage;
    backend?: SpeechBackend | null;
    ratings?: VoiceRatings;
  },
): Promise<{ voice: VoiceService; stop: () => Promise<void> }> {
  const backend = deps.backend === undefined ? openSpeechBackend(deps.config) : deps.backend;
  const s = deps.config.speech;
  const voice = new VoiceService(backend, deps.storage, {
    defaultVoice: s.backend === "off" ? null : s.defaultVoice,
    secret: deps.config.secret,
  });
  await app.register(voiceRoutes, {
    db: deps.db,
    auth: deps.auth,
    voice,
    ratings: deps.ratings ?? productEventRatings(deps.db),
  });
  return { voice, stop: async () => backend?.close() };
}
