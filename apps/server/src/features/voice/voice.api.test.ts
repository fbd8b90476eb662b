import { randomUUID } from "node:crypto";
import type {
  ApiError,
  AudioEvent,
  ConversationCreated,
  ConversationVoice,
  VoiceList,
} from "@hearth/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { speechStandin } from "../../../test/speech-standin.ts";
import { productEvents } from "../ads/schema.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { conversations, messages } from "../chats/schema.ts";
import { spokenText } from "./text.ts";

const GREETING =
  "*She looks up from the map and smiles.* Oh, hello there! Welcome to the library. " +
  "I have been waiting for someone to help me with this old map. It shows a coast nobody has sailed. " +
  "Will you stay a while? The tea is still warm, and the night is long. " +
  "Tomorrow we could walk down to the harbour and ask the old captain what he remembers of that coast. " +
  "He tells the best stories when the fishing has been good. Bring a coat; the wind off the sea is cold.";

/** Reads Listen's event stream to its end. */
async function readAudio(
  res: Response,
  onEvent?: (e: AudioEvent) => Promise<void> | void,
): Promise<AudioEvent[]> {
  if (!res.body) throw new Error("no body");
  const out: AudioEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("");
      if (!data) continue;
      const event = JSON.parse(data) as AudioEvent;
      out.push(event);
      await onEvent?.(event);
    }
  }
  return out;
}

/** The voice feature over HTTP, against a stand-in OpenAI-compatible speech server. */
describe.each(drivers)("voice on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let base: string;
  let standin: Awaited<ReturnType<typeof speechStandin>>;
  let owner: Person;
  let creator: Person;

  beforeAll(async () => {
    standin = await speechStandin();
    h = await startTestHearth({
      driver,
      env: {
        TTS_BASE_URL: standin.url,
        TTS_VOICES: "af_bella:female:Bella:en-us,am_adam:male:Adam:en-us,bf_emma:female:Emma:en-gb",
        HEARTH_TTS_DEFAULT_VOICE: "af_bella",
      },
    });
    a = api(h);
    base = await h.listen();
    owner = await personAs(h, "basic", "Owen");
    creator = await personAs(h, "free", "Cora");
  });
  afterAll(async () => {
    await h.stop();
    await standin.close();
  });

  const err = (res: { json: <T>() => T }) => res.json<ApiError>();
  /** A new character for every chat, and the chat's greeting (a bot message). */
  const newChat = async (who: Person, greeting = GREETING) => {
    const bot = await insertTestCharacter(h.database.db, creator.id as string, { greeting });
    const res = await a.post("/api/conversations", { character_id: bot.id }, who);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<ConversationCreated>();
    const greetingMessage = created.messages.find((m) => m.role === "bot");
    if (!greetingMessage) throw new Error("no greeting");
    return { conversationId: created.conversation.id, messageId: greetingMessage.id };
  };
  const listen = (who: Person, messageId: string, query = "") =>
    fetch(`${base}/api/messages/${messageId}/audio${query}`, {
      headers: who.cookie ? { cookie: who.cookie } : {},
    });
  const voiceOf = async (conversationId: string) =>
    (await h.database.db.select().from(conversations).where(eq(conversations.id, conversationId)))[0]
      ?.voiceId;

  it("lists voices to anyone, by gender and language, each with a sample; the default voice", async () => {
    const all = (await a.get("/api/voices")).json<VoiceList>();
    expect(all.enabled).toBe(true);
    expect(all.default_voice_id).toBe("af_bella");
    expect(all.voices.map((v) => v.id)).toEqual(["af_bella", "am_adam", "bf_emma"]);
    const female = (await a.get("/api/voices?gender=female")).json<VoiceList>().voices;
    expect(female.map((v) => [v.id, v.gender])).toEqual([
      ["af_bella", "female"],
      ["bf_emma", "female"],
    ]);
    expect((await a.get("/api/voices?gender=male")).json<VoiceList>().voices.map((v) => v.name)).toEqual([
      "Adam",
    ]);
    expect((await a.get("/api/voices?language=en-gb")).json<VoiceList>().voices.map((v) => v.id)).toEqual([
      "bf_emma",
    ]);
    expect((await a.get("/api/voices?gender=robot")).statusCode).toBe(400);

    const sample = await a.get(all.voices[1]?.sample_url as string);
    expect(sample.statusCode).toBe(200);
    expect(sample.headers["content-type"]).toBe("audio/wav");
    expect(sample.rawPayload.toString("ascii", 0, 4)).toBe("RIFF");
    expect(standin.requests.at(-1)).toMatchObject({ voice: "am_adam" });
    // Made once, then kept.
    const asked = standin.requests.length;
    expect((await a.get(all.voices[1]?.sample_url as string)).rawPayload.equals(sample.rawPayload)).toBe(
      true,
    );
    expect(standin.requests.length).toBe(asked);
    expect((await a.get("/api/voices/sample?voice=nobody")).statusCode).toBe(404);
    expect((await a.get("/api/voices/sample?voice=a%20b")).statusCode).toBe(400);
  });

  describe("who may choose a voice, listen and rate", () => {
    const refused: [Role, number, string, string | undefined][] = [
      ["signed out", 401, "unauthorized", undefined],
      ["guest", 403, "forbidden", "voice_sign_up"],
      ["free", 403, "forbidden", "voice_upgrade"],
      ["minimal", 403, "forbidden", "voice_upgrade"],
      ["limited", 403, "forbidden", "voice_upgrade"],
      ["restricted", 403, "restricted", undefined],
    ];
    for (const [role, status, code, errorType] of refused) {
      it(`${role}: ${status} ${code}${errorType ? ` (${errorType})` : ""}, nothing changed or spoken`, async () => {
        const who = await personAs(h, role);
        // Their own chat where they may have one, so only the plan refuses.
        const chat = ["guest", "free", "minimal"].includes(role) ? await newChat(who) : await newChat(owner);
        const asked = standin.requests.length;
        for (const res of [
          await a.put(`/api/conversations/${chat.conversationId}/voice`, { voice_id: "am_adam" }, who),
          await a.get(`/api/messages/${chat.messageId}/audio`, who),
          await a.post(`/api/messages/${chat.messageId}/voice-rating`, { rating: 4 }, who),
        ]) {
          expect(res.statusCode, res.body).toBe(status);
          expect(err(res).code).toBe(code);
          expect(err(res).error_type).toBe(errorType);
        }
        expect(await voiceOf(chat.conversationId)).toBeNull();
        expect(standin.requests.length).toBe(asked);
      });
    }

    for (const role of ["basic", "premium", "admin"] as const) {
      it(`${role}: chooses a voice for their chat, hears it in that voice and rates it`, async () => {
        const who = await personAs(h, role);
        const chat = await newChat(who);
        const set = await a.put(
          `/api/conversations/${chat.conversationId}/voice`,
          { voice_id: "am_adam" },
          who,
        );
        expect(set.statusCode, set.body).toBe(200);
        expect(set.json<ConversationVoice>()).toEqual({
          conversation_id: chat.conversationId,
          voice_id: "am_adam",
        });
        expect(await voiceOf(chat.conversationId)).toBe("am_adam");
        const events = await readAudio(await listen(who, chat.messageId));
        expect(events.at(-1)).toMatchObject({ type: "done", voice_id: "am_adam", cached: false });
        expect(standin.requests.at(-1)?.voice).toBe("am_adam");
        const rated = await a.post(`/api/messages/${chat.messageId}/voice-rating`, { rating: 3 }, who);
        expect(rated.statusCode, rated.body).toBe(204);
        const rows = await h.database.db
          .select()
          .from(productEvents)
          .where(
            and(eq(productEvents.messageId, chat.messageId), eq(productEvents.eventName, "voiceQuality")),
          );
        expect(rows.map((r) => [r.userId, r.action, r.detail, r.conversationId])).toEqual([
          [who.id, "am_adam", "3", chat.conversationId],
        ]);
        // Back to the default.
        const reset = await a.put(`/api/conversations/${chat.conversationId}/voice`, { voice_id: null }, who);
        expect(reset.json<ConversationVoice>().voice_id).toBeNull();
      });
    }

    it("another member's conversation and message answer 404: never spoken, voice never changed", async () => {
      const other = await personAs(h, "premium", "Otto");
      const chat = await newChat(owner);
      const asked = standin.requests.length;
      for (const res of [
        await a.put(`/api/conversations/${chat.conversationId}/voice`, { voice_id: "am_adam" }, other),
        await a.get(`/api/messages/${chat.messageId}/audio`, other),
        await a.post(`/api/messages/${chat.messageId}/voice-rating`, { rating: 1 }, other),
        await a.put(`/api/conversations/${randomUUID()}/voice`, { voice_id: "am_adam" }, other),
        await a.get(`/api/messages/${randomUUID()}/audio`, other),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(err(res).code).toBe("notFound");
      }
      expect(await voiceOf(chat.conversationId)).toBeNull();
      expect(standin.requests.length).toBe(asked);
    });
  });

  it("the chat's own PATCH takes a voice only from TTS holders too", async () => {
    const free = await personAs(h, "free");
    const chat = await newChat(free);
    const refused = await a.patch(`/api/conversations/${chat.conversationId}`, { voiceId: "am_adam" }, free);
    expect(refused.statusCode).toBe(403);
    expect(err(refused).error_type).toBe("voice_upgrade");
    expect(await voiceOf(chat.conversationId)).toBeNull();
    const own = await newChat(owner);
    const set = await a.patch(`/api/conversations/${own.conversationId}`, { voiceId: "am_adam" }, owner);
    expect(set.statusCode, set.body).toBe(200);
    expect(await voiceOf(own.conversationId)).toBe("am_adam");
  });

  it("refuses voices the server does not have, user messages and ratings out of range", async () => {
    const chat = await newChat(owner);
    const bad = await a.put(`/api/conversations/${chat.conversationId}/voice`, { voice_id: "alloy" }, owner);
    expect(bad.statusCode).toBe(400);
    expect(err(bad).issues?.[0]?.path).toBe("voice_id");
    const userMessage = randomUUID();
    await h.database.db
      .insert(messages)
      .values({ id: userMessage, conversationId: chat.conversationId, role: "user", content: "Hi there." });
    expect((await a.get(`/api/messages/${userMessage}/audio`, owner)).statusCode).toBe(400);
    const rating = await a.post(`/api/messages/${chat.messageId}/voice-rating`, { rating: 5 }, owner);
    expect(rating.statusCode).toBe(400);
  });

  it("streams by sentence: the first audio arrives while later sentences are not yet made", async () => {
    const chat = await newChat(owner);
    const expected = spokenText(GREETING, { skipActions: false });
    const asked = standin.requests.length;
    standin.hold();
    const res = await listen(owner, chat.messageId);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    // Two pieces are asked for ahead; the first is answered, the rest are held.
    await standin.arrived(asked + 2);
    standin.releaseOne();
    let firstSeenAfter = -1;
    const events = await readAudio(res, (event) => {
      if (event.type === "audio" && event.index === 0) {
        firstSeenAfter = standin.requests.length - asked;
        standin.release();
      }
    });
    const audio = events.filter((e) => e.type === "audio");
    expect(audio.length).toBeGreaterThan(3);
    // When the first piece was heard, only it and the two ahead of it had been asked for.
    expect(firstSeenAfter).toBe(3);
    expect(audio.length).toBeGreaterThan(firstSeenAfter);
    expect(audio.map((e) => e.index)).toEqual(audio.map((_, i) => i));
    expect(audio.map((e) => e.text).join(" ")).toBe(expected.replace(/\n/g, " "));
    expect(audio[0]?.text).toBe("She looks up from the map and smiles.");
    for (const piece of audio) {
      expect(piece.content_type).toBe("audio/wav");
      expect(Buffer.from(piece.data, "base64").toString("ascii", 0, 4)).toBe("RIFF");
      expect(piece.duration_s).toBeCloseTo(piece.text.length * 0.04, 3);
    }
    expect(events.at(-1)).toEqual({
      type: "done",
      pieces: audio.length,
      voice_id: "af_bella",
      cached: false,
    });
    expect(standin.requests.slice(asked).map((r) => r.input)).toEqual(audio.map((e) => e.text));

    // Again: from the cache, the backend not asked.
    const again = await readAudio(await listen(owner, chat.messageId));
    expect(standin.requests.length).toBe(asked + audio.length);
    expect(again.filter((e) => e.type === "audio")).toEqual(audio);
    expect(again.at(-1)).toMatchObject({ type: "done", cached: true });

    // Narration skipped: other words, so other audio.
    const skipped = await readAudio(await listen(owner, chat.messageId, "?skip_actions=true"));
    const spoken = skipped.flatMap((e) => (e.type === "audio" ? [e.text] : []));
    expect(spoken[0]).toBe("Oh, hello there!");
    expect(spoken.join(" ")).not.toContain("smiles");
  });

  it("a failing speech server ends the stream with an error, and nothing is cached", async () => {
    const chat = await newChat(owner, "All is well. Then it will FAIL here. And more after.");
    const first = await readAudio(await listen(owner, chat.messageId));
    expect(first.map((e) => e.type)).toEqual(["audio", "error"]);
    expect(first.at(-1)).toMatchObject({ code: "unavailable" });
    const asked = standin.requests.length;
    const second = await readAudio(await listen(owner, chat.messageId));
    expect(second.at(-1)?.type).toBe("error");
    expect(standin.requests.length).toBeGreaterThan(asked);
  });
});

describe("the embedded eSpeak NG voice, end to end", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ env: { HEARTH_TTS_LANGUAGES: "en-us" } });
  });
  afterAll(() => h.stop());

  it("lists eSpeak's voices and speaks a greeting sentence by sentence as WAV", async () => {
    const a = api(h);
    const voices = (await a.get("/api/voices?gender=female")).json<VoiceList>();
    expect(voices.voices.length).toBeGreaterThan(5);
    expect(voices.voices.every((v) => v.gender === "female" && v.language === "en-us")).toBe(true);
    const who = await personAs(h, "premium");
    const bot = await insertTestCharacter(h.database.db, who.id as string, {
      greeting: "Hello there. How are you?",
    });
    const { messages: shown } = (
      await a.post("/api/conversations", { character_id: bot.id }, who)
    ).json<ConversationCreated>();
    const base = await h.listen();
    const res = await fetch(`${base}/api/messages/${shown[0]?.id}/audio`, {
      headers: { cookie: who.cookie ?? "" },
    });
    const events = await readAudio(res);
    const audio = events.filter((e) => e.type === "audio");
    expect(audio.map((e) => e.text)).toEqual(["Hello there.", "How are you?"]);
    for (const piece of audio) {
      const wav = Buffer.from(piece.data, "base64");
      expect(wav.readUInt32LE(24)).toBe(22_050);
      expect(piece.duration_s).toBeGreaterThan(0.3);
    }
    expect(events.at(-1)).toMatchObject({ type: "done", voice_id: "en-us", cached: false });
  });
});
