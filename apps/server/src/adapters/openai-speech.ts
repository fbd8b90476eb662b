import {
  type SpeechBackend,
  type SpeechVoice,
  type SynthesizedAudio,
  wavDurationS,
} from "../ports/speech.ts";

/**
 * Speech from an OpenAI-compatible server: `POST {base}/audio/speech` with
 * `{ model, input, voice, response_format }`, answering the audio bytes. Piper (behind an
 * OpenAI-compatible front such as openedai-speech), Kokoro-FastAPI, LocalAI and hosted
 * services speak it. The voices are the operator's list (TTS_VOICES), since the protocol has no
 * call that lists them; OpenAI's own six are the default.
 */
export interface OpenAiSpeechOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  voices: readonly SpeechVoice[];
  /** `wav` (default: every browser decodes it, and its length is known) or `mp3`. */
  format: "wav" | "mp3";
  timeoutMs?: number;
}

/** OpenAI's voices, with the gender they are usually described as. */
export const OPENAI_DEFAULT_VOICES: readonly SpeechVoice[] = [
  { id: "alloy", name: "Alloy", gender: "female", language: null },
  { id: "echo", name: "Echo", gender: "male", language: null },
  { id: "fable", name: "Fable", gender: "male", language: null },
  { id: "onyx", name: "Onyx", gender: "male", language: null },
  { id: "nova", name: "Nova", gender: "female", language: null },
  { id: "shimmer", name: "Shimmer", gender: "female", language: null },
];

/**
 * TTS_VOICES: comma-separated `id:gender[:name[:language]]`, e.g. `af_bella:female:Bella:en-us`.
 * Answers the list, or a sentence saying what is wrong.
 */
export function parseVoiceList(value: string): SpeechVoice[] | string {
  const out: SpeechVoice[] = [];
  for (const entry of value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [id = "", gender = "", name, language] = entry.split(":").map((p) => p.trim());
    if (!/^[A-Za-z0-9_.+-]{1,80}$/.test(id)) return `TTS_VOICES: ${JSON.stringify(id)} is not a voice id`;
    if (gender !== "male" && gender !== "female") {
      return `TTS_VOICES: ${id}'s gender must be male or female, not ${JSON.stringify(gender)}`;
    }
    out.push({ id, gender, name: name || id, language: language || null });
  }
  return out.length ? out : "TTS_VOICES lists no voice";
}

export class OpenAiSpeechBackend implements SpeechBackend {
  readonly kind = "openai";

  constructor(private readonly opts: OpenAiSpeechOptions) {}

  async voices(): Promise<SpeechVoice[]> {
    return [...this.opts.voices];
  }

  async synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SynthesizedAudio> {
    if (!this.opts.voices.some((v) => v.id === voiceId))
      throw new Error(`Unknown voice ${JSON.stringify(voiceId)}`);
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    const res = await fetch(`${this.opts.baseUrl.replace(/\/+$/, "")}/audio/speech`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.opts.model,
        input: text,
        voice: voiceId,
        response_format: this.opts.format,
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!res.ok) {
      const detail = (await res.text().catch(() => "")).slice(0, 200);
      throw new Error(`The speech server answered ${res.status}${detail ? `: ${detail}` : ""}`);
    }
    const audio = Buffer.from(await res.arrayBuffer());
    if (audio.length === 0) throw new Error("The speech server answered no audio");
    const contentType = this.opts.format === "mp3" ? "audio/mpeg" : "audio/wav";
    return { audio, contentType, durationS: contentType === "audio/wav" ? wavDurationS(audio) : null };
  }

  async close(): Promise<void> {}
}
