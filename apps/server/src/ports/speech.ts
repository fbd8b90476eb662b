/**
 * Text to speech (issue 16). The embedded default is eSpeak NG compiled to WebAssembly
 * (`adapters/espeak-speech.ts`); `adapters/openai-speech.ts` speaks to any OpenAI-compatible
 * `/audio/speech` (Piper, Kokoro, hosted services). The voice feature splits a reply into
 * sentences and asks for one sentence at a time, so the first audio leaves before the rest is made.
 */
export type VoiceGender = "male" | "female";

export interface SpeechVoice {
  /** Stable id, stored on a conversation (`voice_id`): letters, digits, `-`, `_`, `+`, `.`, `:`. */
  id: string;
  /** What the voice is called in the voice selection modal. */
  name: string;
  gender: VoiceGender;
  /** BCP 47-ish language tag of the voice (`en-us`), or null when the backend does not say. */
  language: string | null;
}

export interface SynthesizedAudio {
  audio: Buffer;
  /** `audio/wav`, `audio/mpeg`, … */
  contentType: string;
  /** Seconds of speech, when the backend can tell (WAV always can). */
  durationS: number | null;
}

export interface SpeechBackend {
  /** Names the backend in cache keys and `/api/voices` (`espeak`, `openai`). */
  readonly kind: string;
  voices(): Promise<SpeechVoice[]>;
  /** Speaks one piece of text (a sentence or a few) with a voice from `voices()`. */
  synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SynthesizedAudio>;
  close(): Promise<void>;
}

/** Seconds of audio in a PCM WAV file (RIFF header + `data` chunk), or null when it is not one. */
export function wavDurationS(wav: Buffer): number | null {
  if (wav.length < 44 || wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") {
    return null;
  }
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= wav.length) {
    const id = wav.toString("ascii", offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === "fmt ") byteRate = wav.readUInt32LE(offset + 16);
    if (id === "data") {
      if (!byteRate) return null;
      // Streamed WAVs say 0 or 0xffffffff here: count what is there.
      const bytes = size === 0 || size === 0xffffffff ? wav.length - offset - 8 : size;
      return Math.min(bytes, wav.length - offset - 8) / byteRate;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}
