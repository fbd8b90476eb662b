import { Agent, type IncomingMessage, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, openTestChat } from "../../../../test/chat.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { startRecordingServer } from "../../../../test/recording-openai-server.ts";

/**
 * A reply's event stream ends in the write that carries its `done`, so a client that stops
 * reading at `done` (as Hearth's web client and the benchmarks do) finds the response complete
 * and sends its next message on the same connection. Before, the response ended a round trip
 * later (after the bus reader's cleanup), the client dropped the connection, and every message
 * cost a new one: a Node server accepts one connection per event-loop turn, so under load new
 * connections queued for seconds (docs/PERFORMANCE.md, "Connections").
 */
describe.each(["pglite", "postgres"] as const)("a reply's stream ends with its done (%s)", (driver) => {
  let h: TestHearth;
  let base: string;
  let model: Awaited<ReturnType<typeof startRecordingServer>>;

  beforeAll(async () => {
    model = await startRecordingServer("*nods* Of course.");
    h = await startTestHearth({
      driver,
      redis: driver === "postgres",
      env: { LLM_BASE_URL: model.url, LLM_MODEL: "recording-model" },
    });
    base = await h.listen();
  });
  afterAll(async () => {
    await h.stop();
    model.close();
  });

  /**
   * Sends on the agent's one connection and reads until `done`; then drops the response, as a
   * client that has what it wanted does, unless it is already complete.
   */
  function sendUntilDone(agent: Agent, cookie: string, conversationId: string) {
    const body = JSON.stringify({ conversation_id: conversationId, action: "send", content: "Hello?" });
    return new Promise<{ reused: boolean; completeAtDone: boolean }>((resolve, reject) => {
      const req = request(`${base}/api/generate`, {
        method: "POST",
        agent,
        headers: {
          cookie,
          origin: base,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      });
      req.on("error", reject);
      req.on("response", (res: IncomingMessage) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("end", () => {
          if (!text.includes('"type":"done"'))
            reject(new Error(`ended before done: ${res.statusCode} ${text}`));
        });
        res.on("data", (chunk: string) => {
          text += chunk;
          if (!text.includes('"type":"done"')) return;
          res.removeAllListeners("data");
          // What arrived with `done` has been parsed by the next turn.
          setImmediate(() => {
            const completeAtDone = res.complete;
            if (completeAtDone) res.resume();
            else res.destroy();
            resolve({ reused: req.reusedSocket, completeAtDone });
          });
        });
      });
      req.end(body);
    });
  }

  it("ends the response with `done`, and the next message goes on the same connection", async () => {
    const user = await h.signUp({ name: "Reuse" });
    const character = await insertTestCharacter(h.database.db, user.id);
    const { conversationId } = await openTestChat(base, user.cookie, character.id);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await sendUntilDone(agent, user.cookie, conversationId);
      expect(first.completeAtDone).toBe(true);
      // The chat is free again once its reply is stored, before `done` goes out.
      const second = await sendUntilDone(agent, user.cookie, conversationId);
      expect(second).toEqual({ reused: true, completeAtDone: true });
    } finally {
      agent.destroy();
    }
  });
});
