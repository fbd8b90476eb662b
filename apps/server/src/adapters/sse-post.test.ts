import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionError, HttpStatusError, postSse } from "./sse-post.ts";

/** The lean streaming client against a local server that answers as each test says. */
describe("postSse", () => {
  let server: Server;
  let base: string;
  let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        bodies.push(body);
        handler(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const post = (over: Partial<Parameters<typeof postSse>[0]> = {}) =>
    postSse({
      url: `${base}/v1/chat`,
      headers: {},
      body: '{"x":1}',
      timeoutMs: 5000,
      maxRetries: 0,
      ...over,
    });
  const collect = async (events: AsyncIterable<unknown>) => {
    const out: unknown[] = [];
    for await (const e of events) out.push(e);
    return out;
  };

  it("parses events split across writes and CRLF lines, skips comments, and stops at [DONE]", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(': keep-alive\r\n\r\ndata: {"n"');
      setImmediate(() => {
        res.write(':1}\r\n\r\ndata:{"n":2}\n\nevent: x\ndata: {"text":"é ✓ 🧭"}\n\n');
        setImmediate(() => res.end('data: [DONE]\n\ndata: {"n":"after"}\n\n'));
      });
    };
    expect(await collect(post())).toEqual([{ n: 1 }, { n: 2 }, { text: "é ✓ 🧭" }]);
    expect(bodies.at(-1)).toBe('{"x":1}');
  });

  it("retries a 503 before the stream starts, honouring Retry-After", async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(503, { "retry-after": "0" }).end('{"error":{"message":"busy"}}');
        return;
      }
      res.writeHead(200).end('data: {"ok":true}\n\ndata: [DONE]\n\n');
    };
    expect(await collect(post({ maxRetries: 2 }))).toEqual([{ ok: true }]);
    expect(calls).toBe(2);
  });

  it("answers a refused request with its status and the server's message, without retrying", async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls += 1;
      res.writeHead(404).end('{"error":{"message":"model not found"}}');
    };
    const failure = await collect(post({ maxRetries: 3 })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HttpStatusError);
    expect(failure).toMatchObject({ status: 404, detail: "model not found" });
    expect(calls).toBe(1);
  });

  it("names an unreachable server and one that does not answer in time as connection errors", async () => {
    const down = await collect(post({ url: "http://127.0.0.1:9/v1/chat" })).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ConnectionError);
    handler = () => {
      // Never answers.
    };
    const slow = await collect(post({ timeoutMs: 50 })).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(ConnectionError);
    expect(String(slow)).toMatch(/no answer within 50 ms/);
  });

  it("never retries a stream cut after it started (a reply is never duplicated)", async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls += 1;
      res.writeHead(200);
      res.write('data: {"n":1}\n\n', () => res.destroy());
    };
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const e of post({ maxRetries: 2 })) seen.push(e);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ n: 1 }]);
    expect(failure).toBeInstanceOf(Error);
    expect(calls).toBe(1);
  });

  it("closes the connection when aborted mid-stream", async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((r) => {
      closed = r;
    });
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('data: {"n":1}\n\n');
      res.on("close", closed);
    };
    const controller = new AbortController();
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const e of post({ signal: controller.signal })) {
        seen.push(e);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ n: 1 }]);
    expect(failure).toBeInstanceOf(Error);
    expect(controller.signal.aborted).toBe(true);
    await serverSawClose;
  });
});
