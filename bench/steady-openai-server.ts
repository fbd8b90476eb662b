import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in inference server for load tests: it speaks OpenAI's streaming chat API and emits
 * one token every `intervalMs`, like a GPU server under steady load. Benchmarks only.
 */
export async function startSteadyServer(opts: {
  intervalMs: number;
  tokens: number;
}): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let sent = 0;
      const chunk = (delta: object, finish: string | null) =>
        res.write(
          `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "steady", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      const timer = setInterval(() => {
        if (sent === opts.tokens) {
          clearInterval(timer);
          chunk({}, "stop");
          res.end("data: [DONE]\n\n");
          return;
        }
        chunk({ content: ` w${sent}` }, null);
        sent += 1;
      }, opts.intervalMs);
      res.on("close", () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}
