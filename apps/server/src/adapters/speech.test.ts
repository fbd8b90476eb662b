import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_SAMPLE_RATE, speechStandin, toneWav } from "../../test/speech-standin.ts";
import { wavDurationS } from "../ports/speech.ts";
import { EspeakSpeechBackend, parseVoiceLines } from "./espeak-speech.ts";
import { OPENAI_DEFAULT_VOICES, OpenAiSpeechBackend, parseVoiceList } from "./openai-speech.ts";

/** The speech port's adapters: the embedded eSpeak NG (real WebAssembly) and the OpenAI-compatible client. */
describe("eSpeak NG (WebAssembly)", () => {
  const espeak = new EspeakSpeechBackend({ languages: ["en-us", "fr-fr", "nope"] });
  afterAll(() => espeak.close());

  it("lists voices by language and gender: each language's own voice and its variants", async () => {
    const voices = await espeak.voices();
    const languages = new Set(voices.map((v) => v.language));
    expect([...languages].sort()).toEqual(["en-us", "fr-fr"]);
    for (const language of languages) {
      const own = voices.filter((v) => v.language === language);
      expect(own.some((v) => v.gender === "female")).toBe(true);
      expect(own.some((v) => v.gender === "male")).toBe(true);
    }
    expect(voices.find((v) => v.id === "en-us")).toMatchObject({ name: "English (America)", gender: "male" });
    expect(voices.find((v) => v.id === "en-us+Annie")).toMatchObject({ gender: "female", language: "en-us" });
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
  });

  it("speaks a sentence as 16-bit mono WAV; a female variant differs from the language's own voice", async () => {
    const text = "Hello there, traveller. The map is on the table.";
    const male = await espeak.synthesize(text, "en-us");
    const female = await espeak.synthesize(text, "en-us+Annie");
    for (const made of [male, female]) {
      expect(made.contentType).toBe("audio/wav");
      expect(made.audio.toString("ascii", 0, 4)).toBe("RIFF");
      expect(made.audio.readUInt16LE(22)).toBe(1);
      expect(made.audio.readUInt32LE(24)).toBe(22_050);
      expect(made.durationS).toBeGreaterThan(1);
      expect(made.durationS).toBe(wavDurationS(made.audio));
    }
    expect(male.audio.equals(female.audio)).toBe(false);
  });

  it("speaks text that looks like options as words, and refuses voices it does not list", async () => {
    const made = await espeak.synthesize("--voices -w /etc/passwd", "en-us");
    expect(made.durationS).toBeGreaterThan(0.5);
    await expect(espeak.synthesize("Hi.", "--help")).rejects.toThrow(/Unknown voice/);
    await expect(espeak.synthesize("Hi.", "de")).rejects.toThrow(/Unknown voice/);
  });

  it("reads espeak-ng's voice table", () => {
    expect(
      parseVoiceLines([
        "Pty Language       Age/Gender VoiceName          File                 Other Languages",
        " 5  en-us           --/M      American_English   gmw/en-US            (en 3)",
        " 5  variant         --/F      Annie              !v/Annie             ",
      ]),
    ).toEqual([
      { language: "en-us", gender: "M", name: "American_English", file: "gmw/en-US" },
      { language: "variant", gender: "F", name: "Annie", file: "!v/Annie" },
    ]);
  });
});

describe("OpenAI-compatible /audio/speech (against a stand-in server)", () => {
  let standin: Awaited<ReturnType<typeof speechStandin>>;
  beforeAll(async () => {
    standin = await speechStandin({ apiKey: "sk-test-speech" });
  });
  afterAll(() => standin.close());

  const backend = (over: Partial<ConstructorParameters<typeof OpenAiSpeechBackend>[0]> = {}) =>
    new OpenAiSpeechBackend({
      baseUrl: `${standin.url}/`,
      apiKey: "sk-test-speech",
      model: "kokoro",
      voices: [{ id: "af_bella", name: "Bella", gender: "female", language: "en-us" }],
      format: "wav",
      ...over,
    });

  it("posts model, input, voice and format with the key, and answers the WAV with its length", async () => {
    const made = await backend().synthesize("Good evening.", "af_bella");
    expect(standin.requests.at(-1)).toEqual({
      model: "kokoro",
      input: "Good evening.",
      voice: "af_bella",
      response_format: "wav",
      authorization: "Bearer sk-test-speech",
    });
    expect(made.contentType).toBe("audio/wav");
    expect(made.durationS).toBeCloseTo(wavDurationS(toneWav(13 * 0.04, STANDIN_SAMPLE_RATE)) ?? 0, 3);
  });

  it("asks for mp3 when told, and says audio/mpeg", async () => {
    const made = await backend({ format: "mp3" }).synthesize("Hi.", "af_bella");
    expect(standin.requests.at(-1)?.response_format).toBe("mp3");
    expect(made).toMatchObject({ contentType: "audio/mpeg", durationS: null });
  });

  it("fails plainly on the server's refusals and on voices it was not given", async () => {
    await expect(backend().synthesize("Please FAIL.", "af_bella")).rejects.toThrow(/answered 500/);
    await expect(backend({ apiKey: "wrong" }).synthesize("Hi.", "af_bella")).rejects.toThrow(/answered 401/);
    const before = standin.requests.length;
    await expect(backend().synthesize("Hi.", "alloy")).rejects.toThrow(/Unknown voice/);
    expect(standin.requests.length).toBe(before);
  });

  it("reads TTS_VOICES; OpenAI's six voices are the default", () => {
    expect(parseVoiceList("af_bella:female:Bella:en-us, am_adam:male")).toEqual([
      { id: "af_bella", gender: "female", name: "Bella", language: "en-us" },
      { id: "am_adam", gender: "male", name: "am_adam", language: null },
    ]);
    expect(parseVoiceList("x:robot")).toMatch(/male or female/);
    expect(parseVoiceList("a b:male")).toMatch(/not a voice id/);
    expect(OPENAI_DEFAULT_VOICES.map((v) => v.id)).toEqual([
      "alloy",
      "echo",
      "fable",
      "onyx",
      "nova",
      "shimmer",
    ]);
  });
});
