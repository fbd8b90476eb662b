import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A minimal OpenAI-compatible chat server for tests that need to see the prompt Hearth sends:
 * it records each request body, streams a fixed reply (or the given replies in turn, the last
 * one repeating), and lists its models.
 */
export async function startRecordingServer(
  reply: string | string[] = "*nods* Of course.",
  /** What GET /v1/models lists. */
  models: string[] = ["recording-model"],
) {
  const requests: { messages: { role: string; content: string }[]; [key: string]: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method === "GET" && req.url?.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model" })) }));
        return;
      }
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      requests.push(JSON.parse(body));
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        res.write(
          `data: ${JSON.stringify({ id: "r", object: "chat.completion.chunk", created: 0, model: "rec", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      const replies = [reply].flat();
      const content = replies[Math.min(requests.length - 1, replies.length - 1)] ?? "";
      chunk({ role: "assistant", content }, null);
      chunk({}, "stop");
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
