import type {
  ApiError,
  ConversationCreated,
  GenerationEvent,
  ImportResult,
  MessagePage,
  ModelList,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSse, type SseMessage, tokensOf } from "../../../../test/chat.ts";
import { drivers } from "../../../../test/databases.ts";
import { LONG_CARD } from "../../../../test/fixtures/long-card.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { ggufTrainedWindow } from "../../../adapters/llama-cpp.ts";
import { seedDemoCharacters } from "../../characters/index.ts";
import { SEED_CHARACTERS } from "../../characters/seed-data.ts";
import { api, type Person, personAs } from "../../characters/test-support.ts";
import { BUNDLED_MODEL_PATH } from "../../inference/registry.ts";
import { appendMessage } from "../queries.ts";

type Done = Extract<GenerationEvent, { type: "done" }>;
const doneOf = (events: SseMessage[]) => events.map((m) => m.event).find((e): e is Done => e.type === "done");
const errorOf = (events: SseMessage[]) => events.map((m) => m.event).find((e) => e.type === "error");

/**
 * The first ten minutes on a fresh install, through the real pipeline (HTTP, queue, worker,
 * llama.cpp with the bundled model, database): every demo character and a long imported card
 * answer, prompts are cut to the model's real window, and only a message that alone cannot fit
 * is refused, before anything is stored.
 */
describe.each(drivers.map((driver) => ({ driver, redis: driver === "postgres" })))(
  "first run on the bundled model ($driver, redis: $redis)",
  ({ driver, redis }) => {
    let h: TestHearth;
    let base: string;
    let guest: Person;
    let member: Person;
    let demoIds: Map<string, string>;

    beforeAll(async () => {
      h = await startTestHearth({ driver, redis, env: { LLM_THREADS: "1" } });
      base = await h.listen();
      await seedDemoCharacters(h.database.db, h.characters);
      guest = await personAs(h, "guest");
      member = await personAs(h, "free", "Sam");
      const browse = (await (await call(guest, "GET", "/api/characters?limit=50")).json()) as {
        characters: { id: string; name: string }[];
      };
      demoIds = new Map(browse.characters.map((c) => [c.name, c.id]));
    });
    afterAll(async () => {
      await h.stop();
    });

    const call = (who: Person, method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          ...(who.cookie ? { cookie: who.cookie } : {}),
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const startChat = async (who: Person, characterId: string) => {
      const res = await call(who, "POST", "/api/conversations", { character_id: characterId });
      expect(res.status).toBe(201);
      return ((await res.json()) as ConversationCreated).conversation.id;
    };
    const send = async (who: Person, conversationId: string, content: string) =>
      readSse(
        await call(who, "POST", "/api/generate", {
          type: "text",
          conversation_id: conversationId,
          action: "send",
          content,
        }),
      );

    it("reports the bundled model's real window, read from its file", async () => {
      const list = (await (await call(guest, "GET", "/api/models")).json()) as ModelList;
      const trained = await ggufTrainedWindow(BUNDLED_MODEL_PATH);
      expect(trained).toBeGreaterThan(0);
      expect(list.models[0]).toMatchObject({
        is_demo: true,
        context_tokens: Math.min(trained as number, 4096),
      });
    });

    it("every demo character answers a guest's first message with a streamed reply", async () => {
      expect(demoIds.size).toBeGreaterThanOrEqual(SEED_CHARACTERS.length);
      for (const seed of SEED_CHARACTERS) {
        const conversationId = await startChat(guest, demoIds.get(seed.name) as string);
        const events = await send(guest, conversationId, "Hello! Who are you, and where are we?");
        expect(errorOf(events), seed.name).toBeUndefined();
        const done = doneOf(events);
        expect(done?.message?.state, seed.name).toBe("complete");
        expect(done?.message?.content.trim().length, seed.name).toBeGreaterThan(0);
        expect(done?.message?.content).toBe(tokensOf(events));
      }
    });

    it("a long imported card answers, with its definition cut to fit and the cut reported", async () => {
      const upload = await api(h).upload(
        "/api/characters/import",
        member,
        Buffer.from(JSON.stringify(LONG_CARD)),
        { filename: "maren.json" },
      );
      expect(upload.statusCode).toBe(201);
      const { character } = upload.json() as ImportResult;
      const conversationId = await startChat(member, character.id);
      const events = await send(
        member,
        conversationId,
        "Thank you for saving me. What happened to the ship?",
      );
      expect(errorOf(events)).toBeUndefined();
      const done = doneOf(events) as Done;
      expect(done.message?.content.trim().length).toBeGreaterThan(0);
      // Free tier: 2,048 tokens at most, and the card alone is longer than that.
      const cut = done.trims.map((t) => t.section);
      expect(cut).toContain("examples");
      expect(cut).toContain("description");
      for (const t of done.trims) expect(t.kept_tokens).toBeLessThan(t.full_tokens);
    });

    it("a long chat is cut at its oldest messages, and the chat remembers where", async () => {
      const conversationId = await startChat(
        member,
        demoIds.get(SEED_CHARACTERS[0]?.name as string) as string,
      );
      for (let i = 0; i < 60; i++) {
        await appendMessage(h.database.db, {
          conversationId,
          role: i % 2 === 0 ? "user" : "bot",
          content: `Message ${i}: the snow keeps falling on the pass, and the fire in the common room burns low.`,
        });
      }
      const events = await send(member, conversationId, "Is there any more stew?");
      expect(errorOf(events)).toBeUndefined();
      const done = doneOf(events) as Done;
      expect(done.trims.map((t) => t.section)).toContain("history");
      expect(done.context_start_message_id).not.toBeNull();
      const page = (await (
        await call(member, "GET", `/api/conversations/${conversationId}/messages?limit=100`)
      ).json()) as MessagePage;
      const ids = page.messages.map((m) => m.id);
      // The cut is somewhere after the greeting and before the newest message.
      const at = ids.indexOf(done.context_start_message_id as string);
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(ids.length - 2);
      const stored = (await (await call(member, "GET", `/api/conversations/${conversationId}`)).json()) as {
        context_start_message_id: string | null;
      };
      expect(stored.context_start_message_id).toBe(done.context_start_message_id);
    });

    it("refuses a message that alone cannot fit, saying how long it may be, and stores nothing", async () => {
      const conversationId = await startChat(
        member,
        demoIds.get(SEED_CHARACTERS[1]?.name as string) as string,
      );
      const res = await call(member, "POST", "/api/generate", {
        type: "text",
        conversation_id: conversationId,
        action: "send",
        content: "Tell me everything. ".repeat(900),
      });
      expect(res.status).toBe(400);
      const error = (await res.json()) as ApiError;
      expect(error.code).toBe("messageTooLong");
      expect(error.message).toMatch(/at most \d+ fit \(about \d+ characters\)/);
      const page = (await (
        await call(member, "GET", `/api/conversations/${conversationId}/messages`)
      ).json()) as MessagePage;
      expect(page.messages.map((m) => m.role)).toEqual(["bot"]);
      // The chat is not left locked: a normal message still goes through.
      const events = await send(member, conversationId, "Sorry. Just: hello!");
      expect(errorOf(events)).toBeUndefined();
    });
  },
);
