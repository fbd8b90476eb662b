/**
 * A server-sent events reader for fetch() bodies. EventSource can only GET, and a generation
 * starts with a POST, so the stream is parsed here (WHATWG "event stream interpretation").
 */

export interface SseMessage {
  /** The message's own `id:` field, or null when it carried none. */
  id: string | null;
  event: string;
  data: string;
}

/** Feeds text in any chunking and hands out complete messages; keeps the partial tail. */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | null = null;
  private hasFields = false;
  /** The previous chunk ended with "\r": a "\n" opening the next one belongs to it. */
  private pendingCr = false;

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (char !== "\n" && char !== "\r") continue;
      const line = this.buffer.slice(start, i);
      if (char === "\r") {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
      const message = this.line(line);
      if (message) out.push(message);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.hasFields = true;
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }

  private dispatch(): SseMessage | null {
    const message =
      this.hasFields && this.data.length > 0
        ? { id: this.id, event: this.event || "message", data: this.data.join("\n") }
        : null;
    this.data = [];
    this.event = "";
    this.id = null;
    this.hasFields = false;
    return message;
  }
}

/** The messages of a response body, as they arrive; `onChunk` hears every chunk (keep-alives too). */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  onChunk?: () => void,
): AsyncGenerator<SseMessage> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      onChunk?.();
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    finished = true;
    // A stream ending without the final blank line drops the unfinished message, as browsers do.
    yield* parser.push(decoder.decode());
  } finally {
    // The reader stopped early (the consumer broke off, or reading failed): let go of the body.
    if (!finished) reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
}
