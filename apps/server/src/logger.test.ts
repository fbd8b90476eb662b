import { spawnSync } from "node:child_process";
import fs, { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import Fastify from "fastify";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { openSse } from "./http/sse.ts";
import { bufferedDestination, loggerOptions, RequestLogLines } from "./logger.ts";

describe("the log redaction", () => {
  it("censors cookies, keys, payment tokens and webhook signatures wherever they appear", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions("info", sink) as { redact: { paths: string[]; censor: string } };
    const log = pino({ redact: options.redact }, sink);
    log.info({
      req: { headers: { cookie: "session=abc", "stripe-signature": "t=1,v1=beef" } },
      stripe: { secretKey: "sk_live_secret", webhookSecret: "whsec_secret" },
      body: { payment_token: "pm_123", card_token: "pm_456", password: "hunter2" },
    });
    const line = lines.join("");
    for (const secret of [
      "session=abc",
      "v1=beef",
      "sk_live_secret",
      "whsec_secret",
      "pm_123",
      "pm_456",
      "hunter2",
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("[redacted]");
  });
});

describe("the request log", () => {
  /** A server with Hearth's logger options and log controller, its lines collected. */
  async function serverWithLog() {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = Fastify({ logger: loggerOptions("info", sink), logController: new RequestLogLines() });
    app.get("/plain", async () => ({ ok: true }));
    app.get("/broken", async () => {
      throw new Error("broken on purpose");
    });
    app.get("/stream", (_req, reply) => {
      const out = openSse<{ n: number }>(reply, { flushHeaders: true });
      out.send({ n: 1 });
      setTimeout(() => out.end(), 10);
    });
    app.get("/endless", (_req, reply) => {
      const out = openSse<{ n: number }>(reply, { flushHeaders: true });
      out.send({ n: 1 });
    });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    // The request lines (an error's own line, from the error handler, is another matter).
    const requestLines = () =>
      lines.filter((l) => /^request /.test(String(l.msg)) || l.msg === "incoming request");
    return { app, url, requestLines };
  }

  it("writes one line per request, when it ends, with its method, address, status and time", async () => {
    const { app, url, requestLines } = await serverWithLog();
    try {
      await (await fetch(`${url}/plain`)).text();
      await (await fetch(`${url}/broken`)).text();
      await (await fetch(`${url}/stream`)).text();
      const left = new AbortController();
      const endless = await fetch(`${url}/endless`, { signal: left.signal });
      const reader = endless.body?.getReader();
      await reader?.read();
      left.abort();
      await expect.poll(() => requestLines().length).toBe(4);
      const byUrl = Object.fromEntries(
        requestLines().map((l) => [(l.req as { url: string }).url, l]),
      ) as Record<
        string,
        { msg: string; req: { method: string }; res: { statusCode: number }; responseTime: number }
      >;
      expect(Object.keys(byUrl).sort()).toEqual(["/broken", "/endless", "/plain", "/stream"]);
      expect(byUrl["/plain"]).toMatchObject({
        msg: "request completed",
        req: { method: "GET" },
        res: { statusCode: 200 },
      });
      expect(byUrl["/broken"]).toMatchObject({ res: { statusCode: 500 } });
      expect(byUrl["/stream"]).toMatchObject({ msg: "request completed", res: { statusCode: 200 } });
      expect(byUrl["/endless"]).toMatchObject({ msg: "request closed by the client" });
      for (const line of requestLines()) expect(line.responseTime).toBeGreaterThanOrEqual(0);
      // No line at a request's start: fastify's own "incoming request" is gone.
      expect(requestLines().some((l) => l.msg === "incoming request")).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe("the log's destination", () => {
  const linesOf = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);

  it("writes lines that come one at a time together, within the flush interval", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hearth-log-"));
    const file = path.join(dir, "log.jsonl");
    const destination = bufferedDestination(file);
    const writes = vi.spyOn(fs, "write");
    try {
      const log = pino(destination);
      // Ten requests' lines, each on a turn of its own: unbuffered, each would be a write.
      for (let i = 0; i < 10; i++) {
        log.info({ i }, "request completed");
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await expect.poll(() => linesOf(file).length).toBe(10);
      const toFile = writes.mock.calls.filter(([fd]) => fd === (destination as unknown as { fd: number }).fd);
      expect(toFile.length).toBeLessThanOrEqual(3);
      expect(linesOf(file).map((line) => JSON.parse(line).i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      writes.mockRestore();
      (destination as unknown as { end(): void }).end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A process that logs two lines to standard output as Hearth does, then ends as `end` says. */
  function logThenEnd(end: string) {
    const script = [
      'import pino from "pino";',
      'import { logDestination } from "./apps/server/src/logger.ts";',
      "const log = pino(logDestination());",
      'log.info("first"); log.error("last words");',
      end,
    ].join("\n");
    const root = path.resolve(import.meta.dirname, "../../..");
    return spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
  }

  it.each([
    ["process.exit", "process.exit(3);"],
    ["an uncaught error", 'setTimeout(() => { throw new Error("boom"); }, 1);'],
  ])("loses no line when the process ends by %s", (_how, end) => {
    const ended = logThenEnd(end);
    expect(ended.status).not.toBe(0);
    const messages = ended.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line).msg);
    expect(messages).toEqual(["first", "last words"]);
  });
});
