import { createHash } from "node:crypto";
import type { AudioEvent, Voice } from "@hearth/contract";
import type { SpeechBackend, SpeechVoice, SynthesizedAudio } from "../../ports/speech.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { speechPieces } from "./text.ts";

/** What a voice sample says. */
export const SAMPLE_TEXT = "Hello! This is how I sound. I hope you enjoy our chat.";

/** Pieces asked of the backend ahead of the one being sent (the first audio is not held up). */
const AHEAD = 2;

interface CachedSpeech {
  pieces: { text: string; content_type: string; data: string; duration_s: number | null }[];
}

const hash = (...parts: string[]) =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 40);

/**
 * Voices, samples and Listen's audio over the speech port. A message's audio is made one piece
 * at a time (text.ts) and handed out as each is ready; once all are made they are kept in
 * storage under `speech/<message>/<hash>.json`, the hash naming the backend, the voice, the
 * spoken text and the server's secret (so the key cannot be guessed), and a later Listen of the
 * same words in the same voice streams them from there. An edited message is new words: new audio.
 */
export class VoiceService {
  private sampleCache = new Map<string, Promise<SynthesizedAudio>>();

  constructor(
    readonly backend: SpeechBackend | null,
    private readonly storage: FileStorage,
    private readonly opts: { defaultVoice: string | null; secret: string },
  ) {}

  async voices(): Promise<SpeechVoice[]> {
    return this.backend ? this.backend.voices() : [];
  }

  async listed(filter: { gender: "male" | "female" | "all"; language?: string }): Promise<Voice[]> {
    return (await this.voices())
      .filter((v) => filter.gender === "all" || v.gender === filter.gender)
      .filter((v) => !filter.language || v.language === filter.language)
      .map((v) => ({ ...v, sample_url: `/api/voices/sample?voice=${encodeURIComponent(v.id)}` }));
  }

  /** The voice of a conversation that chose none (or chose one this server no longer has). */
  async defaultVoiceId(): Promise<string | null> {
    const voices = await this.voices();
    const wanted = voices.find((v) => v.id === this.opts.defaultVoice);
    return (wanted ?? voices[0])?.id ?? null;
  }

  async hasVoice(id: string): Promise<boolean> {
    return (await this.voices()).some((v) => v.id === id);
  }

  /** The voice a conversation speaks with. */
  async resolve(chosen: string | null): Promise<string | null> {
    if (chosen && (await this.hasVoice(chosen))) return chosen;
    return this.defaultVoiceId();
  }

  /** A voice's sample, made once and kept in storage. */
  async sample(voiceId: string): Promise<SynthesizedAudio> {
    const backend = this.backend;
    if (!backend) throw new Error("no speech backend");
    const key = `speech/samples/${hash(backend.kind, voiceId, SAMPLE_TEXT)}`;
    let made = this.sampleCache.get(key);
    if (!made) {
      made = this.loadOrMakeSample(backend, key, voiceId).finally(() => this.sampleCache.delete(key));
      this.sampleCache.set(key, made);
    }
    return made;
  }

  private async loadOrMakeSample(
    backend: SpeechBackend,
    key: string,
    voiceId: string,
  ): Promise<SynthesizedAudio> {
    for (const ext of ["wav", "mp3"]) {
      const stored = await this.storage.get(`${key}.${ext}`);
      if (stored) return { audio: stored.body, contentType: stored.contentType, durationS: null };
    }
    const made = await backend.synthesize(SAMPLE_TEXT, voiceId);
    const ext = made.contentType === "audio/mpeg" ? "mp3" : "wav";
    await this.storage.put(`${key}.${ext}`, made.audio, made.contentType);
    return made;
  }

  /**
   * A message's audio as Listen's events, piece by piece; `done` last. Stops (and keeps nothing)
   * when `signal` aborts. Throws only before the first event (no voice); later failures are an
   * `error` event.
   */
  async *speak(
    message: { id: string; text: string },
    voiceId: string,
    signal: AbortSignal,
    onError?: (error: unknown) => void,
  ): AsyncGenerator<AudioEvent> {
    const backend = this.backend;
    if (!backend) throw new Error("no speech backend");
    const key = `speech/${message.id}/${hash(backend.kind, voiceId, message.text, this.opts.secret)}.json`;
    const cached = await this.readCache(key);
    if (cached) {
      for (const [index, piece] of cached.pieces.entries()) yield { type: "audio", index, ...piece };
      yield { type: "done", pieces: cached.pieces.length, voice_id: voiceId, cached: true };
      return;
    }
    const texts = speechPieces(message.text);
    const made: CachedSpeech["pieces"] = [];
    const inFlight: Promise<SynthesizedAudio>[] = [];
    const ask = (i: number) => {
      const text = texts[i];
      if (text === undefined) return;
      const p = backend.synthesize(text, voiceId, signal);
      p.catch(() => undefined); // awaited below; a failure further ahead must not go unhandled
      inFlight.push(p);
    };
    for (let i = 0; i < Math.min(AHEAD, texts.length); i++) ask(i);
    for (const [index, text] of texts.entries()) {
      if (signal.aborted) return;
      let audio: SynthesizedAudio;
      try {
        audio = await (inFlight.shift() as Promise<SynthesizedAudio>);
      } catch (error) {
        if (signal.aborted) return;
        onError?.(error);
        yield { type: "error", code: "unavailable", message: SPEECH_FAILED };
        return;
      }
      ask(index + AHEAD);
      const piece = {
        text,
        content_type: audio.contentType,
        data: audio.audio.toString("base64"),
        duration_s: audio.durationS,
      };
      made.push(piece);
      yield { type: "audio", index, ...piece };
    }
    if (signal.aborted) return;
    await this.storage.put(key, Buffer.from(JSON.stringify({ pieces: made })), "application/json");
    yield { type: "done", pieces: made.length, voice_id: voiceId, cached: false };
  }

  private async readCache(key: string): Promise<CachedSpeech | null> {
    const stored = await this.storage.get(key);
    if (!stored) return null;
    try {
      const parsed = JSON.parse(stored.body.toString("utf8")) as CachedSpeech;
      return Array.isArray(parsed.pieces) ? parsed : null;
    } catch {
      return null;
    }
  }
}

/** What the member is told when speech fails: never the backend's own words. */
export const SPEECH_FAILED = "The voice could not speak this message right now. Please try again.";
