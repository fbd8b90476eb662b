// One send of a message as a browser with the chat open makes it, timed to `started`: shared by
// bench/accept-cpu.ts and bench/accept-paired.ts.
import http from "node:http";
import type { Client } from "./concurrency-lib.ts";

/** A keep-alive connection of its own, opened by one `GET /api/me`. */
export async function openConnection(client: Client): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  await new Promise<void>((resolve, reject) => {
    const req = http.get(`${client.base}/api/me`, { agent, headers: { cookie: client.cookie } }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
  });
  return agent;
}

/** One send on an open connection, read until `started`; ms from the request to it. */
export async function sendOnOpen(client: Client, agent: http.Agent, toEnd = false): Promise<number> {
  const body = JSON.stringify({ conversation_id: client.conversationId, action: "send", content: "Go on" });
  const t0 = performance.now();
  return await new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${client.base}/api/generate`,
      {
        method: "POST",
        agent,
        headers: {
          cookie: client.cookie,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          origin: client.base,
        },
      },
      (res) => {
        let buffer = "";
        let startedAt = 0;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          if (startedAt === 0 && buffer.includes('"type":"started"')) startedAt = performance.now() - t0;
          if (startedAt > 0 && (!toEnd || buffer.includes('"type":"done"'))) {
            resolve(startedAt);
            req.destroy();
            agent.destroy();
          } else if (buffer.includes('"code"')) reject(new Error(buffer.slice(0, 300)));
        });
        res.on("end", () => reject(new Error(`no started: ${res.statusCode} ${buffer.slice(0, 300)}`)));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
