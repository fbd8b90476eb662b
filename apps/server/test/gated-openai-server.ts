import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A model server that holds each reply open after its first token until the test lets it end,
 * so the test decides when a slot frees (no timing). It records which message each reply answers.
 */
export async function gatedServer() {
  const answering: string[] = [];
  const gates: (() => void)[] = [];
  const arrivals = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
      answering.push(messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        res.write(
          `data: ${JSON.stringify({ id: "r", object: "chat.completion.chunk", created: 0, model: "gated", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      chunk({ role: "assistant", content: "One moment" }, null);
      gates.push(() => {
        chunk({ content: ", done." }, null);
        chunk({}, "stop");
        res.end("data: [DONE]\n\n");
      });
      for (const check of [...arrivals]) check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    answering,
    /**
     * Resolves once `n` replies have reached the server; rejects after `timeoutMs` saying what did
     * arrive, so a test that waits in vain says where instead of running into its own timeout.
     */
    received: (n: number, timeoutMs = 90_000) =>
      new Promise<void>((resolve, reject) => {
        if (answering.length >= n) return resolve();
        const timer = setTimeout(() => {
          arrivals.delete(check);
          reject(
            new Error(
              `the model server got ${answering.length} of ${n} replies: ${JSON.stringify(answering)}`,
            ),
          );
        }, timeoutMs);
        function check() {
          if (answering.length < n) return;
          arrivals.delete(check);
          clearTimeout(timer);
          resolve();
        }
        arrivals.add(check);
      }),
    /** Lets the oldest held reply end. */
    release: () => gates.shift()?.(),
    close: () => server.close(),
  };
}
