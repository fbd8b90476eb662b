import { describe, expect, it } from "vitest";
import { readSse, SseParser } from "./sse.ts";

describe("SseParser", () => {
  it("reads id, event and multi-line data, in any chunking", () => {
    const text =
      'id: 1\ndata: {"type":"token",\ndata: "text":"a"}\n\n: keep-alive\n\nid: 2\r\nevent: x\r\ndata: b\r\n\r\n';
    for (const size of [1, 2, 3, 7, text.length]) {
      const parser = new SseParser();
      const out = [];
      for (let i = 0; i < text.length; i += size) out.push(...parser.push(text.slice(i, i + size)));
      expect(out).toEqual([
        { id: "1", event: "message", data: '{"type":"token",\n"text":"a"}' },
        { id: "2", event: "x", data: "b" },
      ]);
    }
  });

  it("keeps an unfinished message until its blank line arrives", () => {
    const parser = new SseParser();
    expect(parser.push("id: 5\ndata: hel")).toEqual([]);
    expect(parser.push("lo\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ id: "5", event: "message", data: "hello" }]);
  });

  it("treats a lone CR split across chunks as one line end", () => {
    const parser = new SseParser();
    expect(parser.push("data: a\r")).toEqual([]);
    expect(parser.push("\n\r\n")).toEqual([{ id: null, event: "message", data: "a" }]);
  });
});

describe("readSse", () => {
  it("decodes UTF-8 split across chunks and reports every chunk", async () => {
    const bytes = new TextEncoder().encode('id: 9\ndata: {"text":"héllo 🙂"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    let chunks = 0;
    const messages = [];
    for await (const message of readSse(body, () => chunks++)) messages.push(message);
    expect(messages).toEqual([{ id: "9", event: "message", data: '{"text":"héllo 🙂"}' }]);
    expect(chunks).toBe(Math.ceil(bytes.length / 3));
  });
});
