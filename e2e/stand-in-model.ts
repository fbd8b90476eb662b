import { createServer, type Server } from "node:http";

/**
 * A stand-in OpenAI-compatible chat model (POST /v1/chat/completions, streamed) that records
 * the request bodies it receives, so a test can read the prompts Hearth builds. Like the slow
 * model of chat.test.ts, but quick: it writes a short reply in a few chunks.
 */

export interface RecordedRequest {
  model?: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  [key: string]: unknown;
}

export interface StandInModel {
  /** Base URL for LLM_BASE_URL, ending in /v1. */
  url: string;
  /** Every chat completion request received, oldest first. */
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

/** The one model GET /v1/models lists (what Hearth's local-server probe finds). */
export const STAND_IN_MODEL_ID = "stand-in-chat";

export const standInReply = "The lantern flickers as I lean closer. Tell me more, friend.";

export function startStandInModel(reply = standInReply): Promise<StandInModel> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: STAND_IN_MODEL_ID, object: "model" }] }));
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = JSON.parse(body) as RecordedRequest;
      requests.push(request);
      const chunk = (delta: Record<string, string>, finish: string | null) =>
        `data: ${JSON.stringify({
          id: "stand-in",
          object: "chat.completion.chunk",
          created: 0,
          model: request.model ?? "stand-in",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk({ role: "assistant", content: "" }, null));
      for (const piece of reply.match(/\s*\S+/g) ?? []) res.write(chunk({ content: piece }, null));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The system messages of a recorded request, joined. */
export function systemText(request: RecordedRequest | undefined): string {
  return (request?.messages ?? [])
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n");
}
