import { endpoint, idParams } from "../endpoint.ts";
import {
  audioEvent,
  conversationVoice,
  conversationVoiceUpdate,
  messageAudioQuery,
  voiceList,
  voiceListQuery,
  voiceQualityRating,
  voiceSampleQuery,
} from "../voice.ts";

/**
 * Voice (apps/server/src/features/voice): listing voices and their samples is open to anyone;
 * choosing a conversation's voice, Listen and Rate voice quality need the TTS permission and
 * the conversation's ownership (another member's message or conversation answers 404).
 */
export const voiceEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/voices",
    summary: "The voices this server speaks with, filtered by gender (male, female, all), each with a sample",
    tag: "Voice",
    access: "anyone",
    query: voiceListQuery,
    response: voiceList,
  }),
  sample: endpoint({
    method: "GET",
    path: "/api/voices/sample",
    summary: "A short spoken sample of a voice (audio/wav or the speech server's format), cached",
    tag: "Voice",
    access: "anyone",
    query: voiceSampleQuery,
    response: null,
    file: "audio/wav",
  }),
  setConversationVoice: endpoint({
    method: "PUT",
    path: "/api/conversations/{id}/voice",
    summary: "Choose the voice a conversation's replies are spoken with (null: the default); needs TTS",
    tag: "Voice",
    access: "member",
    params: idParams,
    body: conversationVoiceUpdate,
    response: conversationVoice,
  }),
  messageAudio: endpoint({
    method: "GET",
    path: "/api/messages/{id}/audio",
    summary:
      "Listen: a bot message spoken with its conversation's voice, streamed one sentence at a time (audio events, then done); cached per message and voice; needs TTS",
    tag: "Voice",
    access: "member",
    params: idParams,
    query: messageAudioQuery,
    response: null,
    events: audioEvent,
  }),
  rateVoice: endpoint({
    method: "POST",
    path: "/api/messages/{id}/voice-rating",
    summary: "Rate voice quality of a spoken bot message (1-4); needs TTS",
    tag: "Voice",
    access: "member",
    params: idParams,
    body: voiceQualityRating,
    response: null,
  }),
} as const;
