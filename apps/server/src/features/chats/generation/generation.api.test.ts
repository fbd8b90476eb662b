import type { ApiError, ConversationCreated, GenerationEvent, Message, MessagePage } from "@hearth/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse, type SseMessage, tokensOf } from "../../../../test/chat.ts";
import { drivers } from "../../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../../test/model.ts";
import { characterMonthlyMessages, characters } from "../../characters/schema.ts";

const done = (events: SseMessage[]) =>
  events.map((m) => m.event).find((e): e is Extract<GenerationEvent, { type: "done" }> => e.type === "done");

describe.each(drivers.map((driver) => ({ driver, redis: driver === "postgres" })))(
  "generation pipeline ($driver, redis: $redis)",
  ({ driver, redis }) => {
    let h: TestHearth;
    let base: string;
    let user: { cookie: string; id: string };
    let characterId: string;

    beforeAll(async () => {
      h = await startTestHearth({ driver, redis, env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });
      base = await h.listen();
      user = await h.signUp({ name: "Sam" });
      // Premium, so generation settings (temperature 0) apply and replies are deterministic.
      await updateUser(h.database.db, user.id, { role: "premium", status: "active" });
      characterId = (await insertTestCharacter(h.database.db, user.id)).id;
    });
    afterAll(async () => {
      await h.stop();
    });

    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method,
        headers: { cookie: user.cookie, ...(body ? { "content-type": "application/json" } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
    const greedy = { temperature: 0, top_k: 1, max_new_tokens: 180 };
    const newConversation = async () =>
      (await (
        await call("POST", "/api/conversations", { character_id: characterId })
      ).json()) as ConversationCreated;
    const generate = (body: Record<string, unknown>) =>
      call("POST", "/api/generate", { type: "text", settings: greedy, ...body });
    const messages = async (conversationId: string) =>
      ((await (await call("GET", `/api/conversations/${conversationId}/messages`)).json()) as MessagePage)
        .messages;

    it("starts a conversation with the greeting, macros resolved, alternate greetings as alternatives", async () => {
      const created = await newConversation();
      expect(created.messages).toHaveLength(1);
      expect(created.messages[0]).toMatchObject({
        role: "bot",
        content: "*looks up from a map* Oh, hello Sam! I'm Mira.",
        alternative_count: 2,
      });
    });

    it("streams a reply: queued, started with the stored user message, tokens, done with the stored reply", async () => {
      const { conversation } = await newConversation();
      const events = await readSse(
        await generate({ conversation_id: conversation.id, action: "send", content: "Hi Mira!" }),
      );
      const types = events.map((m) => m.event.type);
      expect(types[0]).toBe("queued");
      expect(types[1]).toBe("started");
      expect(types.at(-1)).toBe("done");
      expect(types.filter((t) => t === "token").length).toBeGreaterThan(0);
      const started = events[1]?.event as Extract<GenerationEvent, { type: "started" }>;
      expect(started.user_message).toMatchObject({ role: "user", content: "Hi Mira!" });
      const reply = done(events)?.message as Message;
      expect(reply.content).toBe(tokensOf(events));
      expect(reply.state).toBe("complete");
      // Every streamed event after `queued` carries an id to resume from.
      expect(events.slice(1).every((m) => m.id)).toBe(true);
      const stored = await messages(conversation.id);
      expect(stored.map((m) => [m.role, m.content])).toEqual([
        ["bot", "*looks up from a map* Oh, hello Sam! I'm Mira."],
        ["user", "Hi Mira!"],
        ["bot", reply.content],
      ]);
    });

    it("a stored reply counts once on its character's card and in its month's leaderboard count", async () => {
      const db = h.database.db;
      const figures = async () => {
        const [card] = await db
          .select({ n: characters.numMessages })
          .from(characters)
          .where(eq(characters.id, characterId));
        const [month] = await db
          .select({ n: characterMonthlyMessages.messages })
          .from(characterMonthlyMessages)
          .where(
            and(
              eq(characterMonthlyMessages.characterId, characterId),
              eq(characterMonthlyMessages.month, new Date().toISOString().slice(0, 7)),
            ),
          );
        return { card: card?.n ?? 0, month: month?.n ?? 0 };
      };
      const before = await figures();
      const { conversation } = await newConversation();
      const first = await readSse(
        await generate({ conversation_id: conversation.id, action: "send", content: "Count me." }),
      );
      expect(done(first)?.message?.state).toBe("complete");
      expect(await figures()).toEqual({ card: before.card + 1, month: before.month + 1 });
      // An autopilot suggestion stores no message, so it counts nothing.
      const suggested = await readSse(
        await generate({ conversation_id: conversation.id, action: "autopilot" }),
      );
      expect(done(suggested)?.message).toBeNull();
      expect(await figures()).toEqual({ card: before.card + 1, month: before.month + 1 });
    });

    it("a client that reconnects resumes after its last event without losing tokens", async () => {
      const { conversation } = await newConversation();
      const first = await readSse(
        await generate({ conversation_id: conversation.id, action: "send", content: "Tell me a story." }),
        (m) => m.event.type === "token",
      );
      const lastId = first.at(-1)?.id as string;
      const queued = first[0]?.event as Extract<GenerationEvent, { type: "queued" }> | undefined;
      const generationId = queued?.generation_id;
      expect(generationId).toBeTruthy();
      const rest = await readSse(
        await call("GET", `/api/generations/${generationId}/events`, undefined, { "last-event-id": lastId }),
      );
      const reply = done(rest)?.message as Message;
      expect(tokensOf(first) + tokensOf(rest)).toBe(reply.content);
      expect(rest.some((m) => m.event.type === "started")).toBe(false);
    });

    it("regenerate adds an alternative; the alternatives can be selected", async () => {
      const { conversation } = await newConversation();
      const sent = done(
        await readSse(
          await generate({ conversation_id: conversation.id, action: "send", content: "Hello!" }),
        ),
      )?.message as Message;
      const again = done(
        await readSse(await generate({ conversation_id: conversation.id, action: "regenerate" })),
      )?.message as Message;
      expect(again.id).toBe(sent.id);
      expect(again).toMatchObject({ alternative_index: 1, alternative_count: 2 });
      // Greedy sampling: the same prompt gives the same reply.
      expect(again.content).toBe(sent.content);
      const back = (await (
        await call("PUT", `/api/messages/${sent.id}/alternative`, { alternative_index: 0 })
      ).json()) as Message;
      expect(back).toMatchObject({ alternative_index: 0, content: sent.content });
      const bad = await call("PUT", `/api/messages/${sent.id}/alternative`, { alternative_index: 5 });
      expect(bad.status).toBe(400);
    });

    it("resubmit never overwrites a good reply: it adds an alternative", async () => {
      const { conversation } = await newConversation();
      const sent = done(
        await readSse(
          await generate({ conversation_id: conversation.id, action: "send", content: "Hi again" }),
        ),
      )?.message as Message;
      const again = done(
        await readSse(await generate({ conversation_id: conversation.id, action: "resubmit" })),
      )?.message as Message;
      expect(again).toMatchObject({
        id: sent.id,
        alternative_index: 1,
        alternative_count: 2,
        state: "complete",
      });
      const first = (await (
        await call("PUT", `/api/messages/${sent.id}/alternative`, { alternative_index: 0 })
      ).json()) as Message;
      expect(first.content).toBe(sent.content);
    });

    it("continue extends the last reply", async () => {
      const { conversation } = await newConversation();
      const sent = done(
        await readSse(
          await generate({
            conversation_id: conversation.id,
            action: "send",
            content: "Describe the library.",
          }),
        ),
      )?.message as Message;
      const events = await readSse(await generate({ conversation_id: conversation.id, action: "continue" }));
      const extended = done(events)?.message as Message;
      expect(extended.id).toBe(sent.id);
      expect(extended.content).toBe(sent.content + tokensOf(events));
    });

    it("stop keeps what was generated, marked stopped, and is not an error", async () => {
      const { conversation } = await newConversation();
      // A long reply: tokens are no longer paced by storing them (decision 015), so a short one
      // may end before the stop arrives.
      const settings = { max_new_tokens: 300 };
      const full = done(
        await readSse(
          await generate({
            conversation_id: conversation.id,
            action: "send",
            content: "Tell me everything about maps.",
            settings,
          }),
        ),
      )?.message as Message;
      let events: Awaited<ReturnType<typeof readSse>> = [];
      let stopped: Message | undefined;
      // On a loaded machine the small model may still finish before the stop lands: try again.
      for (let attempt = 0; attempt < 5 && stopped?.state !== "stopped"; attempt++) {
        let generationId = "";
        events = await readSse(
          await generate({ conversation_id: conversation.id, action: "regenerate", settings }),
          async (m) => {
            if (m.event.type === "queued") generationId = m.event.generation_id;
            if (m.event.type === "token")
              expect((await call("POST", `/api/generations/${generationId}/stop`)).status).toBe(204);
            return false;
          },
        );
        stopped = done(events)?.message as Message;
      }
      stopped = stopped as Message;
      expect(events.some((m) => m.event.type === "error")).toBe(false);
      expect(stopped.state).toBe("stopped");
      expect(stopped.content.length).toBeGreaterThan(0);
      expect(stopped.content.length).toBeLessThan(full.content.length);
      // Everything its client saw is kept (a regenerate samples anew, so it is not compared with
      // the first reply's text).
      const received = tokensOf(events);
      expect(received.length).toBeGreaterThan(0);
      expect(stopped.content.startsWith(received)).toBe(true);
    });

    it("one generation per conversation at a time", async () => {
      const { conversation } = await newConversation();
      const firstResponse = await generate({
        conversation_id: conversation.id,
        action: "send",
        content: "One.",
      });
      const second = await generate({ conversation_id: conversation.id, action: "send", content: "Two." });
      expect(second.status).toBe(409);
      expect(((await second.json()) as ApiError).code).toBe("conflict");
      await readSse(firstResponse);
      const third = await generate({ conversation_id: conversation.id, action: "send", content: "Three." });
      expect(third.status).toBe(200);
      await readSse(third);
    });

    it("autopilot suggests the user's next message without storing anything", async () => {
      const { conversation } = await newConversation();
      const before = await messages(conversation.id);
      const events = await readSse(await generate({ conversation_id: conversation.id, action: "autopilot" }));
      const end = done(events);
      expect(end?.message).toBeNull();
      expect(end?.suggestion).toBe(tokensOf(events).trim());
      expect(await messages(conversation.id)).toEqual(before);
    });

    it("refuses bad requests with clear errors and no 500", async () => {
      const { conversation } = await newConversation();
      const cases: [Record<string, unknown>, number, string][] = [
        [{ conversation_id: conversation.id, action: "send" }, 400, "invalidRequest"],
        [{ conversation_id: conversation.id, action: "send", content: "   " }, 400, "invalidRequest"],
        [{ conversation_id: conversation.id, action: "fly" }, 400, "invalidRequest"],
        [
          { conversation_id: "00000000-0000-4000-8000-000000000000", action: "send", content: "x" },
          404,
          "notFound",
        ],
        [
          { conversation_id: conversation.id, action: "continue", message_id: conversation.id },
          404,
          "notFound",
        ],
      ];
      for (const [body, status, code] of cases) {
        const res = await call("POST", "/api/generate", body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(((await res.json()) as ApiError).code).toBe(code);
      }
      const malformed = await fetch(`${base}/api/generate`, {
        method: "POST",
        headers: { cookie: user.cookie, "content-type": "application/json" },
        body: "{",
      });
      expect(malformed.status).toBe(400);
    });
  },
);
