import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARD, GREEDY, RAW_PROMPT, TEST_MODEL_PATH } from "../../test/model.ts";
import { type ChatTurn, LlmError, type LlmEvent } from "../ports/llm.ts";
import { LlamaCppBackend } from "./llama-cpp.ts";

async function collect(events: AsyncIterable<LlmEvent>) {
  const tokens: string[] = [];
  let done: Extract<LlmEvent, { type: "done" }> | null = null;
  for await (const e of events) {
    expect(done, "nothing may follow the done event").toBeNull();
    if (e.type === "token") tokens.push(e.text);
    else done = e;
  }
  if (!done) throw new Error("no done event");
  return { tokens, text: tokens.join(""), stats: done.stats };
}

describe("embedded llama.cpp engine with the bundled model", () => {
  let engine: LlamaCppBackend;
  const chat: ChatTurn[] = [
    { role: "system", content: CARD },
    { role: "user", content: "Hello! What are you reading today?" },
  ];

  beforeAll(async () => {
    engine = await LlamaCppBackend.load({
      modelPath: TEST_MODEL_PATH,
      contextSize: 2048,
      sequences: 3,
      threads: 1,
    });
  });
  afterAll(async () => {
    await engine.close();
  });

  it("loads through the same path as any GGUF and reports itself", () => {
    const info = engine.info();
    expect(info.backend).toBe("llama-cpp");
    expect(info.contextSize).toBe(2048);
    expect(info.exactTokenCount).toBe(true);
    expect(info.name.length).toBeGreaterThan(0);
  });

  it("counts tokens with the model's own tokenizer", async () => {
    expect(await engine.countTokens("")).toBe(0);
    const short = await engine.countTokens("Hello");
    expect(short).toBeGreaterThan(0);
    expect(await engine.countTokens("Hello Hello")).toBeGreaterThan(short);
  });

  it("streams a reply token by token and ends with its stats", async () => {
    const r = await collect(engine.chat({ messages: chat, sampling: GREEDY }));
    expect(r.tokens.length).toBeGreaterThan(1);
    expect(r.stats.completionTokens).toBeGreaterThan(0);
    expect(r.stats.completionTokens).toBeLessThanOrEqual(GREEDY.maxTokens);
    expect(r.stats.promptTokens).toBe(engine.chatTokens(chat).length);
    expect(["stop", "length"]).toContain(r.stats.finishReason);
  });

  it("is deterministic at temperature 0, and a stop string cuts the reply before it", async () => {
    const full = (
      await collect(engine.complete({ prompt: RAW_PROMPT, sampling: { ...GREEDY, maxTokens: 32 } }))
    ).text;
    const again = (
      await collect(engine.complete({ prompt: RAW_PROMPT, sampling: { ...GREEDY, maxTokens: 32 } }))
    ).text;
    expect(again).toBe(full);
    expect(full.length).toBeGreaterThan(4);
    // Stop on a piece of the text it would write: the reply ends right before that piece.
    const stop = full.slice(Math.floor(full.length / 2), Math.floor(full.length / 2) + 3);
    const cut = await collect(
      engine.complete({ prompt: RAW_PROMPT, sampling: { ...GREEDY, maxTokens: 32 }, stop: [stop] }),
    );
    expect(cut.text).toBe(full.slice(0, full.indexOf(stop)));
    expect(cut.stats.finishReason).toBe("stop");
  });

  it("stops within one token step when aborted mid-reply", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    let stats = null;
    for await (const e of engine.chat({
      messages: chat,
      sampling: { ...GREEDY, maxTokens: 200 },
      signal: controller.signal,
    })) {
      if (e.type === "token") {
        seen.push(e.text);
        controller.abort();
      } else stats = e.stats;
    }
    expect(seen).toHaveLength(1);
    expect(stats).toMatchObject({ finishReason: "abort" });
    expect(stats?.completionTokens).toBeLessThanOrEqual(2);
  });

  it("reuses the previous turn's tokens: the next turn evaluates only what is new", async () => {
    const turn1 = await collect(engine.chat({ messages: chat, sampling: GREEDY }));
    const before = { ...engine.counters };
    const next: ChatTurn[] = [
      ...chat,
      { role: "assistant", content: turn1.text },
      { role: "user", content: "Show me a map." },
    ];
    const turn2 = await collect(engine.chat({ messages: next, sampling: GREEDY }));
    const evaluated = engine.counters.evaluatedPromptTokens - before.evaluatedPromptTokens;
    expect(turn2.stats.cachedPromptTokens).toBeGreaterThanOrEqual(turn1.stats.promptTokens);
    expect(evaluated).toBe(turn2.stats.promptTokens - turn2.stats.cachedPromptTokens);
    // The new tokens are the user's turn and the template around it: a small share of the prompt.
    expect(evaluated).toBeLessThan(turn2.stats.promptTokens / 2);
  });

  it("serves several conversations at once on separate sequences", async () => {
    const others = ["Tell me about the sea.", "Do you like cats?", "What is your favourite book?"].map(
      (q): ChatTurn[] => [
        { role: "system", content: CARD },
        { role: "user", content: q },
      ],
    );
    let peak = 0;
    const results = await Promise.all(
      others.map(async (messages) => {
        const tokens: string[] = [];
        for await (const e of engine.chat({ messages, sampling: GREEDY })) {
          peak = Math.max(peak, engine.busySequences);
          if (e.type === "token") tokens.push(e.text);
        }
        return tokens.join("");
      }),
    );
    expect(peak).toBe(3);
    // Each equals what the same prompt gives alone: sequences do not bleed into each other.
    for (const [i, messages] of others.entries()) {
      expect((await collect(engine.chat({ messages, sampling: GREEDY }))).text).toBe(results[i]);
    }
  });

  it("continues a trailing assistant message instead of opening a new turn", async () => {
    const start = await collect(engine.chat({ messages: chat, sampling: { ...GREEDY, maxTokens: 6 } }));
    const continued = await collect(
      engine.chat({
        messages: [...chat, { role: "assistant", content: start.text }],
        sampling: { ...GREEDY, maxTokens: 6 },
      }),
    );
    const longer = await collect(engine.chat({ messages: chat, sampling: { ...GREEDY, maxTokens: 12 } }));
    expect(longer.text.startsWith(start.text)).toBe(true);
    expect(start.text + continued.text).toBe(longer.text.slice(0, (start.text + continued.text).length));
  });

  it("refuses a prompt larger than the context with a clear error", async () => {
    const huge: ChatTurn[] = [{ role: "user", content: "word ".repeat(3000) }];
    await expect(collect(engine.chat({ messages: huge, sampling: GREEDY }))).rejects.toThrow(LlmError);
  });
});

describe("background requests on the embedded engine (automatic memory)", () => {
  let engine: LlamaCppBackend;
  const chat: ChatTurn[] = [
    { role: "system", content: CARD },
    { role: "user", content: "Tell me about the maps on your desk." },
  ];
  // A reply that would run long if nothing stopped it (the model rarely ends a turn at once).
  const long = { ...GREEDY, maxTokens: 400 };

  beforeAll(async () => {
    engine = await LlamaCppBackend.load({
      modelPath: TEST_MODEL_PATH,
      contextSize: 2048,
      sequences: 1,
      threads: 1,
    });
  });
  afterAll(async () => {
    await engine.close();
  });

  it("gives its only sequence to a reply: the background request ends with abort, the reply runs", async () => {
    const background = engine
      .chat({ messages: chat, sampling: long, background: true })
      [Symbol.asyncIterator]();
    // The first token means the background request holds the sequence.
    const first = await background.next();
    expect(first.value?.type).toBe("token");
    const reply = collect(engine.chat({ messages: chat, sampling: { ...GREEDY, maxTokens: 8 } }));
    let rest: IteratorResult<LlmEvent>;
    let done: LlmEvent | undefined;
    let tokens = 1;
    do {
      rest = await background.next();
      if (rest.value?.type === "token") tokens++;
      if (rest.value?.type === "done") done = rest.value;
    } while (!rest.done);
    expect(done?.type === "done" && done.stats.finishReason).toBe("abort");
    expect(tokens).toBeLessThan(long.maxTokens);
    const r = await reply;
    expect(r.stats.finishReason).not.toBe("abort");
    expect(r.stats.completionTokens).toBeGreaterThan(0);
  });

  it("waits while a reply holds the sequence, then runs", async () => {
    const reply = engine
      .chat({ messages: chat, sampling: { ...GREEDY, maxTokens: 8 } })
      [Symbol.asyncIterator]();
    expect((await reply.next()).value?.type).toBe("token");
    const background = collect(
      engine.chat({ messages: chat, sampling: { ...GREEDY, maxTokens: 8 }, background: true }),
    );
    const order: string[] = [];
    void background.then(() => order.push("background"));
    let step: IteratorResult<LlmEvent>;
    do step = await reply.next();
    while (!step.done);
    order.push("reply");
    const b = await background;
    expect(order).toEqual(["reply", "background"]);
    expect(b.stats.finishReason).not.toBe("abort");
  });
});
