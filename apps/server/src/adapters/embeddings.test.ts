import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../test/model.ts";
import { LlmError } from "../ports/llm.ts";
import { LlamaEmbeddingBackend } from "./llama-embeddings.ts";
import { OpenAiEmbeddingBackend } from "./openai-embeddings.ts";

const KEY = "test-key-0123456789abcdef";
const TEXTS = [
  "Sam buried the brass key under the oak.",
  "Where did Sam hide the key?",
  "Mira likes jasmine tea.",
];
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

describe("embeddings from the embedded engine and over Hearth's own /v1/embeddings", () => {
  let local: LlamaEmbeddingBackend;
  let h: TestHearth;
  let baseUrl: string;

  beforeAll(async () => {
    local = await LlamaEmbeddingBackend.load({ modelPath: TEST_MODEL_PATH, threads: 1 });
    h = await startTestHearth({
      env: {
        HEARTH_API_KEY: KEY,
        EMBEDDINGS_MODEL: TEST_MODEL_PATH,
        LLM_MODEL: TEST_MODEL_PATH,
        LLM_THREADS: "1",
      },
    });
    await h.app.listen({ port: 0, host: "127.0.0.1" });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await local.close();
    await h.stop();
  });

  it("gives one unit-length vector per text, the same each time, nearer for related texts", async () => {
    const vectors = await local.embed(TEXTS);
    expect(vectors).toHaveLength(3);
    const [key, question, tea] = vectors as [number[], number[], number[]];
    for (const v of vectors) {
      expect(v.length).toBe(key.length);
      expect(Math.abs(dot(v, v) - 1)).toBeLessThan(1e-6);
    }
    expect(await local.embed([TEXTS[0] as string])).toEqual([key]);
    expect(dot(key, question)).toBeGreaterThan(dot(key, tea));
    expect(local.model).toBe("gguf:Hearth Tiny Roleplay");
  });

  it("serves the same vectors to an OpenAI client, in the order asked", async () => {
    const remote = new OpenAiEmbeddingBackend({ baseUrl, apiKey: KEY, model: local.model });
    const [a, b] = await Promise.all([remote.embed(TEXTS), local.embed(TEXTS)]);
    expect(a).toHaveLength(3);
    for (const [i, v] of a.entries()) {
      const want = b[i] as number[];
      expect(v.length).toBe(want.length);
      expect(Math.max(...v.map((x, j) => Math.abs(x - (want[j] ?? 0))))).toBeLessThan(1e-5);
    }
  });

  it("refuses a wrong key, another model, and bad input the OpenAI way", async () => {
    await expect(
      new OpenAiEmbeddingBackend({ baseUrl, apiKey: "wrong-key-0123456789", model: "x" }).embed(["hi"]),
    ).rejects.toThrow(LlmError);
    const post = (body: unknown) =>
      fetch(`${baseUrl}/embeddings`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const other = await post({ model: "text-embedding-3-small", input: "hi" });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    const bad = await post({ input: [] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});

describe("/v1/embeddings without an embedding model", () => {
  it("answers 404 with how to configure one", async () => {
    const h = await startTestHearth({ env: { HEARTH_API_KEY: KEY } });
    try {
      const res = await h.app.inject({
        method: "POST",
        url: "/v1/embeddings",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        payload: JSON.stringify({ input: "hi" }),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { message: expect.stringContaining("EMBEDDINGS_MODEL") } });
    } finally {
      await h.stop();
    }
  });
});
