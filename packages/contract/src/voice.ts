import { z } from "zod";
import { int32 } from "./integers.ts";

/**
 * Voice (issue 16; chat-and-characters §2, §3 Voice, §4 Voice button, §6 TTS): the voices the
 * server's speech backend offers, a conversation's voice, Listen's audio stream and Rate voice
 * quality.
 */

export const voiceGender = z.enum(["male", "female"]);
export type VoiceGender = z.infer<typeof voiceGender>;

/** Voice ids: what the speech backend calls its voice (`en-us+Annie`, `alloy`, `af_bella`). */
export const voiceId = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9_.+:-]+$/, "Not a voice id");

export const voice = z.object({
  id: z.string(),
  name: z.string(),
  gender: voiceGender,
  /** The voice's language (`en-us`), or null when the backend does not say. */
  language: z.string().nullable(),
  /** A short sample of the voice (GET /api/voices/sample?voice=…). */
  sample_url: z.string(),
});
export type Voice = z.infer<typeof voice>;

/** GET /api/voices: `gender` filters (male, female, or all, the default). */
export const voiceListQuery = z.object({
  gender: z.enum(["male", "female", "all"]).default("all"),
  language: z
    .string()
    .max(20)
    .regex(/^[a-z0-9-]+$/)
    .optional(),
});
export const voiceList = z.object({
  voices: z.array(voice),
  /** The voice a conversation without one of its own speaks with; null when there is no voice. */
  default_voice_id: z.string().nullable(),
  /** Whether this server speaks at all (HEARTH_TTS=off: no). */
  enabled: z.boolean(),
});
export type VoiceList = z.infer<typeof voiceList>;

export const voiceSampleQuery = z.object({ voice: voiceId });

/** PUT /api/conversations/{id}/voice: null goes back to the default voice. */
export const conversationVoiceUpdate = z.object({ voice_id: voiceId.nullable() });
export const conversationVoice = z.object({
  conversation_id: z.string(),
  voice_id: z.string().nullable(),
});
export type ConversationVoice = z.infer<typeof conversationVoice>;

/** GET /api/messages/{id}/audio. */
export const messageAudioQuery = z.object({
  /** Leave narration in *asterisks* out (the member's Listen setting). */
  skip_actions: z.stringbool().default(false),
});

/**
 * Listen's stream: one `audio` event per sentence (or a few short ones), in order, each playable
 * on its own, so playback starts with the first; then `done`, or `error` when speech failed.
 */
export const audioEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("audio"),
    index: z.number().int().min(0),
    /** The words this piece speaks. */
    text: z.string(),
    content_type: z.string(),
    /** The audio, base64. */
    data: z.string(),
    duration_s: z.number().nullable(),
  }),
  z.object({
    type: z.literal("done"),
    pieces: z.number().int().min(0),
    voice_id: z.string(),
    /** True when the audio came from the cache, not the speech backend. */
    cached: z.boolean(),
  }),
  z.object({ type: z.literal("error"), code: z.string(), message: z.string() }),
]);
export type AudioEvent = z.infer<typeof audioEvent>;

/** Rate voice quality (message menu): 1-4, Terrible, Bad, Great, Fantastic, as message ratings. */
export const voiceQualityRating = z.object({
  rating: int32(1, 4),
  /** The voice that was heard; the conversation's (or the default) when left out. */
  voice_id: voiceId.optional(),
});
export type VoiceQualityRating = z.infer<typeof voiceQualityRating>;
