// The embedded voice (issue 16): time to first audio and real-time factor of eSpeak NG
// (WebAssembly, adapters/espeak-speech.ts) speaking a 300-character reply through the voice
// feature's Listen path (features/voice/service.ts: pieces by sentence, two asked ahead), against
// making the whole reply as one piece first. Storage is in memory, so the figures are speech only.
// Run: npx tsx bench/voice.ts   (HEARTH_BENCH_RUNS to change the number of runs)
import { randomUUID } from "node:crypto";
import { EspeakSpeechBackend } from "../apps/server/src/adapters/espeak-speech.ts";
import { VoiceService } from "../apps/server/src/features/voice/service.ts";
import { speechPieces, spokenText } from "../apps/server/src/features/voice/text.ts";
import type { FileStorage, StoredFile } from "../apps/server/src/ports/storage.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const RUNS = Number(process.env.HEARTH_BENCH_RUNS ?? 7);
const VOICE = "en-us+Annie";
const REPLY =
  "*She sets the lantern on the table and smiles.* The storm came in faster than anyone expected. " +
  "The boats are tied down, the lamp is lit, and the kettle is on. Sit by the fire and dry your coat. " +
  "Tell me, did you see the old ship out past the rocks? I thought I saw a light moving on her deck.";

class MemoryStorage implements FileStorage {
  readonly driver = "local" as const;
  private files = new Map<string, StoredFile>();
  async put(key: string, body: Buffer, contentType: string) {
    this.files.set(key, { body, contentType });
  }
  async get(key: string) {
    return this.files.get(key) ?? null;
  }
  async delete(key: string) {
    this.files.delete(key);
  }
  url(key: string) {
    return `/api/files/${key}`;
  }
  async *list() {
    yield* this.files.keys();
  }
  async ping() {}
}

async function main() {
  const text = spokenText(REPLY, { skipActions: false });
  const backend = new EspeakSpeechBackend({ languages: ["en-us"] });
  const voice = new VoiceService(backend, new MemoryStorage(), { defaultVoice: VOICE, secret: "bench" });

  // Cold: the worker thread starts and compiles the WebAssembly module on first use.
  const coldStart = performance.now();
  await backend.voices();
  const coldMs = performance.now() - coldStart;

  const firstAudio: number[] = [];
  const streamedTotal: number[] = [];
  const audioSeconds: number[] = [];
  const wholeReply: number[] = [];
  const cachedFirst: number[] = [];
  let pieces = 0;
  for (let run = 0; run < RUNS; run++) {
    const message = { id: randomUUID(), text };
    const start = performance.now();
    let first = 0;
    let seconds = 0;
    for await (const event of voice.speak(message, VOICE, new AbortController().signal)) {
      if (event.type === "audio") {
        if (!first) first = performance.now() - start;
        seconds += event.duration_s ?? 0;
      }
      if (event.type === "done") pieces = event.pieces;
      if (event.type === "error") throw new Error(event.message);
    }
    firstAudio.push(first);
    streamedTotal.push(performance.now() - start);
    audioSeconds.push(seconds);

    const again = performance.now();
    for await (const event of voice.speak(message, VOICE, new AbortController().signal)) {
      if (event.type === "audio") {
        cachedFirst.push(performance.now() - again);
        break;
      }
    }

    const whole = performance.now();
    await backend.synthesize(text, VOICE);
    wholeReply.push(performance.now() - whole);
  }
  // A longer reply (four times the words): where speaking by sentence pays off most.
  const longText = Array.from({ length: 4 }, () => text).join(" ");
  const longFirst: number[] = [];
  const longWhole: number[] = [];
  for (let run = 0; run < Math.min(RUNS, 3); run++) {
    const start = performance.now();
    for await (const event of voice.speak(
      { id: randomUUID(), text: longText },
      VOICE,
      new AbortController().signal,
    )) {
      if (event.type === "audio") {
        longFirst.push(performance.now() - start);
        break;
      }
    }
    const whole = performance.now();
    await backend.synthesize(longText, VOICE);
    longWhole.push(performance.now() - whole);
  }
  await backend.close();

  const audioS = median(audioSeconds);
  const rtf = median(streamedTotal) / 1000 / audioS;
  const report = `
## Voice: the embedded eSpeak NG speaking a reply

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. A ${REPLY.length}-character reply (${text.length} characters spoken once the *narration* marks are dropped, ${pieces} pieces: ${speechPieces(
    text,
  )
    .map((p) => p.length)
    .join(
      " + ",
    )} characters), voice \`${VOICE}\`, median of ${RUNS} runs, each a new message (no cache). Rerun: \`npx tsx bench/voice.ts\`.

| | time |
|---|---|
| time to first audio (Listen: the first sentence ready to send) | **${ms(median(firstAudio))}** |
| all pieces made (Listen) | ${ms(median(streamedTotal))} |
| the whole reply as one piece (no streaming: what the first audio would wait for) | ${ms(median(wholeReply))} |
| a ${longText.length}-character reply: first audio / the whole as one piece | ${ms(median(longFirst))} / ${ms(median(longWhole))} |
| first audio of the same reply again, from the cache | ${ms(median(cachedFirst))} |
| first use after start (worker thread, WebAssembly compile, voice list) | ${ms(coldMs)} |

Audio: ${audioS.toFixed(2)} s of speech (22 050 Hz mono WAV). Real-time factor (time to make / length of the speech) **${rtf.toFixed(3)}**: one core makes speech about ${(1 / rtf).toFixed(0)}× faster than it is spoken, so after the first sentence playback never waits. On a reply this short eSpeak makes the whole text about as fast as its first sentence: each piece runs in a fresh WebAssembly instance of eSpeak NG (its embedded voice data loaded again), about 100 ms that every piece pays whatever its length, so the first audio is not sooner than the whole reply here; it is on longer replies (the row above) and with neural voices behind the OpenAI-compatible adapter, whose time grows with the text. Requests queue on one worker thread, so concurrent listeners share one core (another process, or an OpenAI-compatible speech server, scales further). Times are speech only: storage is in memory and no HTTP is involved (the HTTP stream adds one SSE write per piece).
`;
  writeSection("voice", report);
  console.log(report);
}

await main();
