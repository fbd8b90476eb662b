import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";
import { CARD, GREEDY, RAW_PROMPT, TEST_MODEL_PATH } from "../../test/model.ts";
import { type ChatTurn, LlmError, type LlmEvent } from "../ports/llm.ts";
import type { LlamaCppBackend } from "./llama-cpp.ts";
import { OpenAiCompatibleBackend } from "./openai-compatible.ts";

const KEY = "test-key-0123456789abcdef";

async function collect(events: AsyncIterable<LlmEvent>) {
  let text = "";
  let stats = null;
  for await (const e of events) {
    if (e.type === "token") text += e.text;
    else stats = e.stats;
  }
  return { text, stats };
}

describe("OpenAI-compatible client against Hearth's own /v1 endpoints", () => {
  let h: TestHearth;
  let baseUrl: string;
  const chat: ChatTurn[] = [
    { role: "system", content: CARD },
    { role: "user", content: "Good morning! Any new maps?" },
  ];

  beforeAll(async () => {
    h = await startTestHearth({ env: { HEARTH_API_KEY: KEY, LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });
    await h.app.listen({ port: 0, host: "127.0.0.1" });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await h.stop();
  });

  const client = (over: Partial<ConstructorParameters<typeof OpenAiCompatibleBackend>[0]> = {}) =>
    new OpenAiCompatibleBackend({
      baseUrl,
      apiKey: KEY,
      model: h.inference.registry.defaultId,
      contextSize: 2048,
      ...over,
    });

  it("streams the same reply as the engine gives directly", async () => {
    const direct = await collect((await h.inference.backend()).chat({ messages: chat, sampling: GREEDY }));
    const remote = await collect(client().chat({ messages: chat, sampling: GREEDY }));
    expect(remote.text).toBe(direct.text);
    expect(remote.text.length).toBeGreaterThan(0);
    expect(remote.stats).toMatchObject({
      promptTokens: direct.stats?.promptTokens,
      completionTokens: direct.stats?.completionTokens,
    });
  });

  it("reports prompt tokens served from cache on the next turn", async () => {
    const first = await collect(client().chat({ messages: chat, sampling: GREEDY }));
    const next: ChatTurn[] = [
      ...chat,
      { role: "assistant", content: first.text },
      { role: "user", content: "Lovely." },
    ];
    const second = await collect(client().chat({ messages: next, sampling: GREEDY }));
    expect(second.stats?.cachedPromptTokens).toBeGreaterThan(0);
  });

  it("completes raw text, honouring stop strings", async () => {
    const full = await collect(client().complete({ prompt: RAW_PROMPT, sampling: GREEDY }));
    const stop = full.text.slice(4, 7);
    const cut = await collect(client().complete({ prompt: RAW_PROMPT, sampling: GREEDY, stop: [stop] }));
    expect(cut.text).toBe(full.text.slice(0, full.text.indexOf(stop)));
  });

  it("aborts a streaming reply: the client stops and the server stops generating", async () => {
    const engine = (await h.inference.backend()) as LlamaCppBackend;
    const generatedBefore = engine.counters.completionTokens;
    const controller = new AbortController();
    let tokens = 0;
    let stats = null;
    for await (const e of client().chat({
      messages: chat,
      sampling: { ...GREEDY, maxTokens: 200 },
      signal: controller.signal,
    })) {
      if (e.type === "token") {
        tokens += 1;
        controller.abort();
      } else stats = e.stats;
    }
    expect(tokens).toBe(1);
    expect(stats).toMatchObject({ finishReason: "abort" });
    // The server noticed the closed connection and freed the sequence long before 200 tokens.
    for (let i = 0; i < 100 && engine.busySequences > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(engine.busySequences).toBe(0);
    expect(engine.counters.completionTokens - generatedBefore).toBeLessThan(200);
  });

  it("maps failures to clear errors", async () => {
    await expect(
      collect(client({ apiKey: "wrong-key-0123456789" }).chat({ messages: chat, sampling: GREEDY })),
    ).rejects.toThrow(/refused Hearth's API key/);
    const unknown = collect(client({ model: "no-such-model" }).chat({ messages: chat, sampling: GREEDY }));
    await expect(unknown).rejects.toMatchObject({ kind: "bad_request" });
    const down = collect(
      client({ baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 }).chat({ messages: chat, sampling: GREEDY }),
    );
    await expect(down).rejects.toBeInstanceOf(LlmError);
    await expect(down).rejects.toMatchObject({ kind: "unavailable" });
  });

  it("answers OpenAI-shaped JSON without streaming, and 400s malformed requests", async () => {
    const auth = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    const res = await h.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: auth,
      payload: JSON.stringify({ messages: chat, max_tokens: 8, temperature: 0, top_k: 1 }),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0].message.role).toBe("assistant");
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(8);

    for (const payload of [
      "{",
      JSON.stringify({ messages: [] }),
      JSON.stringify({ messages: chat, temperature: 9 }),
    ]) {
      const bad = await h.app.inject({ method: "POST", url: "/v1/chat/completions", headers: auth, payload });
      expect(bad.statusCode, payload).toBe(400);
      expect(bad.json().error.message).toBeTruthy();
    }
    const models = await h.app.inject({ method: "GET", url: "/v1/models", headers: auth });
    expect(models.json().data.map((m: { id: string }) => m.id)).toEqual([h.inference.registry.defaultId]);
  });

  it("refuses requests without the key", async () => {
    const res = await h.app.inject({ method: "GET", url: "/v1/models" });
    expect(res.statusCode).toBe(401);
  });
});

describe("Hearth's /v1 API without HEARTH_API_KEY", () => {
  it("stays closed", async () => {
    const h = await startTestHearth();
    const res = await h.app.inject({
      method: "GET",
      url: "/v1/models",
      headers: { authorization: "Bearer anything" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain("HEARTH_API_KEY");
    await h.stop();
  });
});
