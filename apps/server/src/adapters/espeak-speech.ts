import { Worker } from "node:worker_threads";
import {
  type SpeechBackend,
  type SpeechVoice,
  type SynthesizedAudio,
  wavDurationS,
} from "../ports/speech.ts";

/**
 * The embedded voice: eSpeak NG compiled to WebAssembly (the `espeak-ng` npm package), needing
 * nothing but `npm install`. Synthesis runs in one worker thread (`espeak-worker.mjs`), requests
 * one after another, so speech never holds up the server's event loop.
 *
 * Voices are eSpeak's languages (HEARTH_TTS_LANGUAGES, `en-us` by default) each with eSpeak's
 * voice variants, which carry a gender (`en-us+Annie`: Annie, female); a language's own voice is
 * listed too. Audio is 16-bit mono WAV at 22 050 Hz.
 */

interface WorkerReply {
  id: number;
  lines?: string[];
  wav?: Uint8Array;
  error?: string;
}

interface VoiceLine {
  language: string;
  gender: "M" | "F" | "-";
  name: string;
  file: string;
}

/** One row of `espeak-ng --voices`: `Pty Language Age/Gender VoiceName File Other`. */
export function parseVoiceLines(lines: readonly string[]): VoiceLine[] {
  const out: VoiceLine[] = [];
  for (const line of lines) {
    const m = /^\s*\d+\s+(\S+)\s+\S*\/([MF-])\s+(\S+)\s+(\S+)/.exec(line);
    if (m)
      out.push({
        language: m[1] as string,
        gender: m[2] as VoiceLine["gender"],
        name: m[3] as string,
        file: m[4] as string,
      });
  }
  return out;
}

/** Voice ids: a language, optionally `+` a variant; nothing an option could be made of. */
const VOICE_ID = /^[a-z]{2,3}(-[a-z0-9]{1,8})*(\+[A-Za-z0-9_-]{1,40})?$/;

export class EspeakSpeechBackend implements SpeechBackend {
  readonly kind = "espeak";
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }
  >();
  /** Requests run one after another: one instance's memory at a time, and fair order. */
  private chain: Promise<unknown> = Promise.resolve();
  private voiceList: Promise<SpeechVoice[]> | null = null;

  constructor(private readonly opts: { languages: readonly string[] }) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./espeak-worker.mjs", import.meta.url));
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      this.worker = null;
    };
    worker.on("error", fail);
    worker.on("exit", () => fail(new Error("The speech worker stopped.")));
    this.worker = worker;
    return worker;
  }

  private run(args: string[], input?: string, outFile?: string): Promise<WorkerReply> {
    const job = this.chain.then(
      () =>
        new Promise<WorkerReply>((resolve, reject) => {
          const id = this.nextId++;
          this.pending.set(id, { resolve, reject });
          this.start().postMessage({ id, args, input, outFile });
        }),
    );
    this.chain = job.catch(() => undefined);
    return job;
  }

  voices(): Promise<SpeechVoice[]> {
    this.voiceList ??= this.listVoices().catch((error) => {
      this.voiceList = null;
      throw error;
    });
    return this.voiceList;
  }

  private async listVoices(): Promise<SpeechVoice[]> {
    const languages = parseVoiceLines((await this.run(["--voices"])).lines ?? []);
    const variants = parseVoiceLines((await this.run(["--voices=variant"])).lines ?? []).filter(
      (v) => v.gender !== "-" && /^!v\/[A-Za-z0-9_-]+$/.test(v.file),
    );
    const out: SpeechVoice[] = [];
    for (const wanted of this.opts.languages) {
      const language = languages.find((l) => l.language === wanted);
      if (!language) continue;
      const label = language.name.replace(/_/g, " ");
      out.push({
        id: language.language,
        name: label,
        gender: language.gender === "F" ? "female" : "male",
        language: language.language,
      });
      for (const v of variants) {
        out.push({
          id: `${language.language}+${v.file.slice(3)}`,
          name: `${v.name.replace(/_/g, " ")} (${label})`,
          gender: v.gender === "F" ? "female" : "male",
          language: language.language,
        });
      }
    }
    return out.filter((v) => VOICE_ID.test(v.id));
  }

  async synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SynthesizedAudio> {
    if (!VOICE_ID.test(voiceId) || !(await this.voices()).some((v) => v.id === voiceId)) {
      throw new Error(`Unknown voice ${JSON.stringify(voiceId)}`);
    }
    signal?.throwIfAborted();
    const reply = await this.run(
      ["-b", "1", "-v", voiceId, "-w", "/speech.wav", "-f", "/input.txt"],
      text,
      "/speech.wav",
    );
    if (reply.error || !reply.wav) throw new Error(`eSpeak NG could not speak: ${reply.error ?? "no audio"}`);
    const audio = Buffer.from(reply.wav.buffer, reply.wav.byteOffset, reply.wav.byteLength);
    return { audio, contentType: "audio/wav", durationS: wavDurationS(audio) };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
