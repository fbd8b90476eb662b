import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const epochMs = () => performance.timeOrigin + performance.now();

/**
 * A stand-in inference server for load tests: it speaks OpenAI's streaming chat API and emits
 * one token every `intervalMs`, like a GPU server under steady load. With `stamp`, each token is
 * ` w<n>@<epoch ms it was sent>`, so a client can tell how long Hearth held it. Benchmarks only.
 */
export async function startSteadyServer(opts: {
  intervalMs: number;
  tokens: number;
  stamp?: boolean;
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
        chunk({ content: opts.stamp ? ` w${sent}@${epochMs().toFixed(2)}` : ` w${sent}` }, null);
        sent += 1;
      }, opts.intervalMs);
      res.on("close", () => clearInterval(timer));
    });
  });
  // Thousands of streams at once: keep the listen backlog from refusing a burst of connections.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

// Run alone (`tsx bench/steady-openai-server.ts <intervalMs> <tokens>`), it serves from its own
// process, so its CPU and event loop are not the load client's; it prints its URL.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [interval = "20", tokens = "100"] = process.argv.slice(2);
  const { url } = await startSteadyServer({
    intervalMs: Number(interval),
    tokens: Number(tokens),
    stamp: true,
  });
  console.log(url);
}
