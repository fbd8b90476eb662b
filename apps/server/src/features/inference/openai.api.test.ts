import {
  openAiChatCompletion,
  openAiChatStreamEvent,
  openAiCompletion,
  openAiCompletionStreamEvent,
  openAiEndpoints,
  openAiErrorBody,
  openAiModelList,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { GREEDY, RAW_PROMPT } from "../../../test/model.ts";

/**
 * Hearth's OpenAI-compatible /v1 on the bundled model: every answer matches the contract's
 * declaration (JSON, or each `data:` of a stream), and every refusal is OpenAI's error shape.
 */
const KEY = "k".repeat(32);
const sampling = { max_tokens: 8, temperature: GREEDY.temperature, top_k: GREEDY.topK, seed: GREEDY.seed };

/** The `data:` lines of an SSE answer: the JSON events, and whether it ended with [DONE]. */
function sse(body: string) {
  const data = body
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length));
  const done = data.at(-1) === "[DONE]";
  return { events: (done ? data.slice(0, -1) : data).map((d) => JSON.parse(d) as unknown), done };
}

describe("/v1 with HEARTH_API_KEY unset", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("is off: every endpoint answers 404 in OpenAI's shape, whatever it is sent", async () => {
    for (const def of Object.values(openAiEndpoints)) {
      const res = await h.app.inject({
        method: def.method,
        url: def.path,
        headers: { authorization: `Bearer ${KEY}` },
        ...(def.method === "POST" ? { payload: { nope: true } } : {}),
      });
      expect(res.statusCode, def.path).toBe(404);
      expect(openAiErrorBody.parse(res.json()).error).toMatchObject({
        type: "invalid_request_error",
        code: "not_found",
      });
    }
  });
});

describe("/v1 with HEARTH_API_KEY set", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ env: { HEARTH_API_KEY: KEY } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...headers },
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  const refusal = (res: { json: () => unknown }) => openAiErrorBody.parse(res.json()).error;

  it("refuses a missing or wrong key with 401 invalid_api_key, before reading the body", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${KEY}x`, KEY.slice(1)]) {
      const res = await h.app.inject({
        method: "POST",
        url: "/v1/chat/completions",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        payload: "{ not json",
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(refusal(res)).toEqual({
        message: "Invalid API key.",
        type: "invalid_request_error",
        code: "invalid_api_key",
      });
    }
  });

  it("GET /v1/models lists the registry as the contract declares", async () => {
    const res = await h.app.inject({
      method: "GET",
      url: "/v1/models",
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.statusCode).toBe(200);
    const list = openAiModelList.parse(res.json());
    expect(list.data.map((m) => m.id)).toEqual(h.inference.registry.entries.map((e) => e.id));
    expect(list.data[0]).toMatchObject({ object: "model", owned_by: "hearth" });
  });

  it("POST /v1/chat/completions answers the whole reply as JSON", async () => {
    const res = await post("/v1/chat/completions", {
      messages: [
        { role: "developer", content: "You are Mira." },
        { role: "user", content: [{ type: "text", text: "Hello!" }] },
      ],
      ...sampling,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const answer = openAiChatCompletion.parse(res.json());
    expect(answer.id).toMatch(/^chatcmpl-/);
    expect(answer.model).toBe(h.inference.registry.defaultId);
    expect(answer.choices).toHaveLength(1);
    expect(answer.usage.completion_tokens).toBeGreaterThan(0);
    expect(answer.usage.total_tokens).toBe(answer.usage.prompt_tokens + answer.usage.completion_tokens);
    // Nothing beyond the contract's shape was sent.
    expect(res.json()).toEqual(answer);
  });

  it("with stream: true it streams chunks of the declared events, ending with usage and [DONE]", async () => {
    const res = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: "Hello!" }],
      stream: true,
      ...sampling,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream");
    const { events, done } = sse(res.body);
    expect(done).toBe(true);
    const chunks = events.map((e) => openAiChatStreamEvent.parse(e));
    const ids = new Set(chunks.map((c) => ("id" in c ? c.id : null)));
    expect(ids.size).toBe(1);
    const first = chunks[0];
    const last = chunks.at(-1);
    if (!first || !("choices" in first) || !last || !("choices" in last)) throw new Error(res.body);
    expect(first.choices[0]?.delta).toEqual({ role: "assistant" });
    expect(last.choices).toEqual([]);
    expect(last.usage?.completion_tokens).toBeGreaterThan(0);
    const finished = chunks.at(-2);
    if (!finished || !("choices" in finished)) throw new Error(res.body);
    expect(finished.choices[0]?.finish_reason).toMatch(/^(stop|length)$/);
  });

  it("POST /v1/completions continues a raw prompt, as JSON or as a stream", async () => {
    const json = await post("/v1/completions", { prompt: RAW_PROMPT, ...sampling });
    expect(json.statusCode, json.body).toBe(200);
    const answer = openAiCompletion.parse(json.json());
    expect(answer.id).toMatch(/^cmpl-/);
    expect(answer.choices[0]?.text.length).toBeGreaterThan(0);
    expect(json.json()).toEqual(answer);

    const streamed = await post("/v1/completions", { prompt: RAW_PROMPT, stream: true, ...sampling });
    expect(streamed.statusCode).toBe(200);
    const { events, done } = sse(streamed.body);
    expect(done).toBe(true);
    const chunks = events.map((e) => openAiCompletionStreamEvent.parse(e));
    const text = chunks.map((c) => ("choices" in c ? c.choices.map((x) => x.text).join("") : "")).join("");
    // Greedy: the stream says what the JSON answer said.
    expect(text).toBe(answer.choices[0]?.text);
  });

  it("refuses bad input with 400 in OpenAI's shape, naming the field (the contract's schema)", async () => {
    const cases: [string, unknown, string][] = [
      ["/v1/chat/completions", { messages: [] }, "messages"],
      ["/v1/chat/completions", { messages: [{ role: "tool", content: "x" }] }, "messages.0.role"],
      ["/v1/chat/completions", { messages: [{ role: "user", content: "x" }], max_tokens: 0 }, "max_tokens"],
      ["/v1/chat/completions", null, "messages"],
      ["/v1/completions", { prompt: 42 }, "prompt"],
      ["/v1/completions", { prompt: "x", temperature: 9 }, "temperature"],
      ["/v1/completions", { prompt: "x", stop: ["a", "b", "c", "d", "e", "f", "g", "h", "i"] }, "stop"],
    ];
    for (const [url, body, field] of cases) {
      const res = await post(url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
      const error = refusal(res);
      expect(error.type).toBe("invalid_request_error");
      expect(error.code).toBe("invalid_request_error");
      expect(error.message.startsWith(`${field}: `), error.message).toBe(true);
    }
  });

  it("answers fastify's own refusals and an unknown model in OpenAI's shape too", async () => {
    const notJson = await post("/v1/chat/completions", "{ nope");
    expect(notJson.statusCode).toBe(400);
    expect(refusal(notJson).type).toBe("invalid_request_error");

    const xml = await post("/v1/completions", "<prompt/>", { "content-type": "application/xml" });
    expect(xml.statusCode).toBe(415);
    expect(refusal(xml).type).toBe("invalid_request_error");

    // A JSON endpoint takes JSON only: text/plain is refused unread, like any other type.
    const text = await post("/v1/completions", "prompt", { "content-type": "text/plain" });
    expect(text.statusCode).toBe(415);
    expect(refusal(text).type).toBe("invalid_request_error");

    const unknown = await post("/v1/chat/completions", {
      model: "no-such-model",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(refusal(unknown)).toEqual({
      message: 'No model "no-such-model" on this server.',
      type: "invalid_request_error",
      code: "bad_request",
    });
  });
});
