import { z } from "zod";
import { OPENAI_DEFAULT_VOICES, parseVoiceList } from "./adapters/openai-speech.ts";
import type { SpeechVoice } from "./ports/speech.ts";

/**
 * Speech (issue 16, features/voice): the embedded eSpeak NG voice by default, or an
 * OpenAI-compatible `/audio/speech` server (TTS_BASE_URL). config.ts spreads these variables
 * into its schema; README.md documents them.
 */
export const speechEnv = {
  /** `auto`: TTS_BASE_URL's server when set, else the embedded eSpeak NG voice; `off`: no voice. */
  HEARTH_TTS: z.enum(["auto", "off"]).default("auto"),
  /** The embedded voice's languages (eSpeak NG names, comma-separated), each with its variants. */
  HEARTH_TTS_LANGUAGES: z.string().default("en-us"),
  /** The voice of conversations that chose none; else the first voice listed. */
  HEARTH_TTS_DEFAULT_VOICE: z.string().min(1).max(120).optional(),
  /** An OpenAI-compatible speech server (Piper, Kokoro, hosted): its base URL, e.g. `http://kokoro:8880/v1`. */
  TTS_BASE_URL: z.url().optional(),
  TTS_API_KEY: z.string().optional(),
  TTS_MODEL: z.string().min(1).default("tts-1"),
  /** Its voices, `id:gender[:name[:language]]` comma-separated; OpenAI's six when unset. */
  TTS_VOICES: z.string().optional(),
  /** What it is asked to answer: `wav` (default) or `mp3`. */
  TTS_FORMAT: z.enum(["wav", "mp3"]).default("wav"),
};

type SpeechEnv = z.output<z.ZodObject<typeof speechEnv>>;

export type SpeechConfig =
  | { backend: "off" }
  | { backend: "espeak"; languages: string[]; defaultVoice: string | null }
  | {
      backend: "openai";
      baseUrl: string;
      apiKey: string | undefined;
      model: string;
      voices: SpeechVoice[];
      format: "wav" | "mp3";
      defaultVoice: string | null;
    };

/** The speech settings, or a sentence saying what is wrong with them. */
export function speechConfig(e: SpeechEnv): SpeechConfig | string {
  if (e.HEARTH_TTS === "off") return { backend: "off" };
  const defaultVoice = e.HEARTH_TTS_DEFAULT_VOICE ?? null;
  if (e.TTS_BASE_URL) {
    const voices = e.TTS_VOICES ? parseVoiceList(e.TTS_VOICES) : [...OPENAI_DEFAULT_VOICES];
    if (typeof voices === "string") return voices;
    return {
      backend: "openai",
      baseUrl: e.TTS_BASE_URL,
      apiKey: e.TTS_API_KEY,
      model: e.TTS_MODEL,
      voices,
      format: e.TTS_FORMAT,
      defaultVoice,
    };
  }
  const languages = e.HEARTH_TTS_LANGUAGES.split(",")
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
  const bad = languages.find((l) => !/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(l));
  if (bad) return `HEARTH_TTS_LANGUAGES: ${JSON.stringify(bad)} is not an eSpeak NG language`;
  return { backend: "espeak", languages: languages.length ? languages : ["en-us"], defaultVoice };
}
