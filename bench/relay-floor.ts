// The floor for bench/concurrency.ts: the least a server can do to stream a model's replies to
// chat clients on this machine, with none of Hearth (no accounts, database, bus, queue, prompt or
// logging). It answers the few requests the benchmark's client makes, and for each message opens
// one streaming request to the model (Node's http, a keep-alive agent, as Hearth's adapter does)
// and writes each token on as an event as it arrives. Run with the same client, stand-in and
// cores, Hearth's figures read as this plus what Hearth adds (HEARTH_BENCH_CONFIGS=floor).
// Run alone: `MODEL_URL=http://127.0.0.1:PORT/v1 npx tsx bench/relay-floor.ts` (prints its address).
import { randomUUID } from "node:crypto";
import http from "node:http";
import { json, listenAsHearth } from "./floor-http.ts";

const MODEL_URL = process.env.MODEL_URL ?? process.env.LLM_BASE_URL ?? "";
const agent = new http.Agent({ keepAlive: true });
const characterId = randomUUID();

/** One reply: the model's stream, each token written on as a `token` event. */
function relay(res: http.ServerResponse) {
  const generationId = randomUUID();
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  res.write(`data: ${JSON.stringify({ type: "started", generation_id: generationId })}\n\n`);
  const body = JSON.stringify({ model: "steady", stream: true, messages: [{ role: "user", content: "Go" }] });
  const upstream = http.request(`${MODEL_URL}/chat/completions`, {
    method: "POST",
    agent,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
  });
  upstream.on("response", (answer) => {
    answer.setEncoding("utf8");
    let pending = "";
    answer.on("data", (chunk: string) => {
      pending += chunk;
      let out = "";
      let cut = pending.indexOf("\n\n");
      while (cut >= 0) {
        const line = pending.slice(0, cut);
        pending = pending.slice(cut + 2);
        cut = pending.indexOf("\n\n");
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        const text = (JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]
          ?.delta.content;
        if (text) out += `data: ${JSON.stringify({ type: "token", text })}\n\n`;
      }
      if (out) res.write(out);
    });
    answer.on("end", () =>
      res.end(`data: ${JSON.stringify({ type: "done", generation_id: generationId })}\n\n`),
    );
  });
  upstream.on("error", () => res.end(`data: ${JSON.stringify({ type: "error", code: "backend" })}\n\n`));
  res.on("close", () => upstream.destroy());
  upstream.end(body);
}

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/api/characters") return json(res, 200, { characters: [{ id: characterId }] });
    if (req.url === "/api/auth/sign-in/anonymous")
      return json(res, 200, {}, { "set-cookie": `session=${randomUUID()}; Path=/; HttpOnly` });
    if (req.url === "/api/conversations") return json(res, 201, { conversation: { id: randomUUID() } });
    if (req.url === "/api/generate") return relay(res);
    json(res, 404, { code: "notFound" });
  });
});
listenAsHearth(server);
