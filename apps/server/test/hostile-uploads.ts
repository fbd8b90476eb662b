import { randomBytes } from "node:crypto";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";

/**
 * Hostile uploads sent over real HTTP, for the upload limits' test and bench/hostile-uploads.ts:
 * bodies made on the fly from generators (never held whole), a streaming multipart POST that
 * stops sending once the answer has come, and a prober that times a small request over and over
 * while an upload runs, beside the event loop's own delay.
 */

/** A SillyTavern chat of `lines` messages (after its header), made as it is sent. */
export async function* jsonlChat(lines: number): AsyncGenerator<Buffer> {
  yield Buffer.from(`${JSON.stringify({ user_name: "Alex", character_name: "Mira" })}\n`);
  const batch: string[] = [];
  for (let i = 0; i < lines; i++) {
    batch.push(JSON.stringify({ name: i % 2 ? "Mira" : "Alex", is_user: i % 2 === 0, mes: `Message ${i}` }));
    if (batch.length === 1000) {
      yield Buffer.from(`${batch.join("\n")}\n`);
      batch.length = 0;
    }
  }
  if (batch.length) yield Buffer.from(`${batch.join("\n")}\n`);
}

/**
 * A Hearth chat file of `messages` messages and about `bytes` bytes (each message's text padded
 * to share them), made 1,000 messages at a time as it is sent.
 */
export async function* hearthChat(messages: number, bytes: number): AsyncGenerator<Buffer> {
  const message = (i: number, text: string) =>
    JSON.stringify({
      role: i % 2 ? "bot" : "user",
      alternatives: [text],
      alternative_index: 0,
      state: "complete",
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    });
  const head = `{"format":"hearth-chat","version":1,"character":{"id":"c","name":"Mira"},"title":"Long night","persona":null,"messages":[`;
  const room = Math.floor((bytes - head.length - 4) / messages) - message(messages, "").length - 1;
  const pad = "x".repeat(Math.max(0, room - `Message ${messages} `.length));
  yield Buffer.from(head);
  const batch: string[] = [];
  for (let i = 0; i < messages; i++) {
    batch.push(message(i, `Message ${i} ${pad}`));
    if (batch.length === 1000 || i === messages - 1) {
      yield Buffer.from(`${i < 1000 ? "" : ","}${batch.join(",")}`);
      batch.length = 0;
    }
  }
  yield Buffer.from("]}");
}

/** `bytes` of a would-be zip (its local header first, then filler), made 1 MB at a time. */
export async function* bigArchive(bytes: number): AsyncGenerator<Buffer> {
  const block = Buffer.alloc(1024 * 1024, 0x5a);
  block.writeUInt32LE(0x04034b50, 0);
  for (let sent = 0; sent < bytes; sent += block.length) {
    yield sent + block.length <= bytes ? block : block.subarray(0, bytes - sent);
    block.writeUInt32LE(0x5a5a5a5a, 0);
  }
}

/** A flat-colour PNG: tens of millions of pixels in a few hundred KB. */
export function flatPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export async function* once(data: Buffer): AsyncGenerator<Buffer> {
  yield data;
}

export interface StreamAnswer {
  status: number;
  body: { code?: string; message?: string };
  /** File bytes handed to the socket when the answer's head arrived, and in all. */
  sentAtAnswer: number;
  sent: number;
  /** The answer's Connection header: "keep-alive" when the server kept the connection. */
  connection: string | undefined;
}

/**
 * POSTs (or PUTs) `file` as the one file of a multipart body, chunk by chunk, waiting for the socket to
 * drain. Once the answer's head arrives it stops making the file, ends the body and reads the
 * answer.
 */
export function postFile(
  url: string,
  headers: Record<string, string>,
  file: AsyncIterable<Buffer>,
  opts: { method?: string; filename?: string; contentLength?: number } = {},
): Promise<StreamAnswer> {
  const boundary = `----hearth${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.filename ?? "upload.bin"}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let sentAtAnswer = 0;
    const req = http.request(target, {
      method: opts.method ?? "POST",
      headers: {
        ...headers,
        origin: target.origin,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        ...(opts.contentLength !== undefined
          ? { "content-length": String(opts.contentLength) }
          : { "transfer-encoding": "chunked" }),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      answered = true;
      sentAtAnswer = sent;
      wake();
      const parts: Buffer[] = [];
      res.on("data", (chunk: Buffer) => parts.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        let body: StreamAnswer["body"] = {};
        try {
          body = JSON.parse(text);
        } catch {
          body = { message: text };
        }
        // A declared length cannot be cut short politely: that connection is given up.
        if (opts.contentLength !== undefined) req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body,
          sentAtAnswer,
          sent,
          connection: res.headers.connection,
        });
      });
    });
    let wake = () => {};
    // Once answered, a write waiting for the socket to drain stops waiting: nothing more is sent.
    const write = (chunk: Buffer) =>
      req.write(chunk) || answered
        ? Promise.resolve()
        : new Promise<void>((done) => {
            wake = done;
            req.once("drain", done);
          });
    (async () => {
      await write(head);
      for await (const chunk of file) {
        if (answered) break;
        sent += chunk.length;
        await write(chunk);
        // The client shares the server's process: it gives way after each chunk, as a client
        // elsewhere would, instead of making the file in one go while the socket takes it.
        await new Promise(setImmediate);
      }
      if (opts.contentLength === undefined) req.end(answered ? undefined : tail);
      else if (!answered) req.end(tail);
    })().catch(reject);
  });
}

export interface Delays {
  /** The slowest small request while the upload ran, and how many were timed. */
  worstRequestMs: number;
  medianRequestMs: number;
  requests: number;
  /** The event loop's largest delay meanwhile (perf_hooks, 10 ms resolution). */
  worstLoopDelayMs: number;
}

/**
 * Runs `work` while GET `probeUrl` is asked again and again (one at a time, on its own
 * connection) and the event loop's delay is sampled; answers the work's result and the delays.
 */
export async function whileProbing<T>(probeUrl: string, work: () => Promise<T>): Promise<[T, Delays]> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let running = true;
  const times: number[] = [];
  const probe = async () => {
    while (running) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        http
          .get(probeUrl, { agent }, (res) => {
            res.resume();
            res.on("end", resolve);
          })
          .on("error", reject);
      });
      times.push(performance.now() - started);
    }
  };
  const probing = probe();
  // A failed probe surfaces through the await below; if the work fails first, its error is the one.
  probing.catch(() => {});
  try {
    const result = await work();
    running = false;
    await probing;
    const sorted = times.sort((a, b) => a - b);
    const delays: Delays = {
      worstRequestMs: sorted.at(-1) ?? 0,
      medianRequestMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
      requests: sorted.length,
      worstLoopDelayMs: loop.max / 1e6,
    };
    return [result, delays];
  } finally {
    running = false;
    loop.disable();
    agent.destroy();
  }
}
