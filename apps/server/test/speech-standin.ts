import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for an OpenAI-compatible speech server (Piper, Kokoro, OpenAI): `POST
 * {base}/audio/speech` with `{ model, input, voice, response_format }` answers the audio bytes,
 * as OpenAI documents it. Its audio is a quiet tone, 16-bit mono WAV at 16 kHz, 40 ms per
 * character of input (mp3 requests get a few MPEG frame headers). It records every request;
 * with `hold()`, answers wait until `release()`, so a test decides when speech is ready.
 * Inputs containing "FAIL" are answered 500; a wrong bearer key 401.
 */
export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  response_format: string;
  authorization: string | undefined;
}

export const STANDIN_SAMPLE_RATE = 16_000;
export const STANDIN_SECONDS_PER_CHAR = 0.04;

export function toneWav(seconds: number, rate = STANDIN_SAMPLE_RATE): Buffer {
  const samples = Math.max(1, Math.round(seconds * rate));
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 220 * i) / rate)), 44 + i * 2);
  }
  return wav;
}

export async function speechStandin(opts: { apiKey?: string } = {}) {
  const requests: SpeechRequest[] = [];
  let holding = false;
  const held: (() => void)[] = [];
  const arrivals = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/audio/speech")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const parsed = JSON.parse(body) as Omit<SpeechRequest, "authorization">;
      const request = { ...parsed, authorization: req.headers.authorization };
      requests.push(request);
      for (const check of [...arrivals]) check();
      const answer = () => {
        if (opts.apiKey && request.authorization !== `Bearer ${opts.apiKey}`) {
          res.writeHead(401, { "content-type": "application/json" }).end('{"error":{"message":"bad key"}}');
        } else if (request.input.includes("FAIL")) {
          res.writeHead(500, { "content-type": "application/json" }).end('{"error":{"message":"boom"}}');
        } else if (request.response_format === "mp3") {
          res
            .writeHead(200, { "content-type": "audio/mpeg" })
            .end(Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]));
        } else {
          res
            .writeHead(200, { "content-type": "audio/wav" })
            .end(toneWav(request.input.length * STANDIN_SECONDS_PER_CHAR));
        }
      };
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    /** Holds every answer from now on until `release()`. */
    hold() {
      holding = true;
    },
    /** Answers the oldest held request (holding goes on). */
    releaseOne() {
      held.shift()?.();
    },
    /** Answers everything held and stops holding. */
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    /** Resolves once `count` requests have arrived in all. */
    arrived(count: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (requests.length >= count) {
            arrivals.delete(check);
            resolve();
          }
        };
        arrivals.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
