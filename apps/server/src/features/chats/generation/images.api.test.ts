import type { ApiError, ConversationCreated, GenerationEvent, Message } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../../test/chat.ts";
import { comfyUiStandin } from "../../../../test/comfyui-standin.ts";
import { drivers } from "../../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { moderationStandin } from "../../../../test/image-standins.ts";
import { pngParameters } from "../../../../test/standin-png.ts";
import { characters } from "../../characters/schema.ts";
import { type Person, personAs, type Role } from "../../characters/test-support.ts";
import { messages } from "../schema.ts";

/**
 * Pictures in chats over HTTP (issue 16 items 3-4), against a stand-in ComfyUI and a stand-in
 * OpenAI-compatible moderation service: who may make them, the picture on its message, the
 * image-prompt edit, both content refusals (nothing refused is stored) and a server with no
 * image model.
 */
describe.each(drivers)("images in chats on %s", (driver) => {
  let h: TestHearth;
  let base: string;
  let comfy: Awaited<ReturnType<typeof comfyUiStandin>>;
  let moderation: Awaited<ReturnType<typeof moderationStandin>>;
  let creator: Person;

  beforeAll(async () => {
    comfy = await comfyUiStandin();
    moderation = await moderationStandin({ apiKey: "sk-mod-secret" });
    h = await startTestHearth({
      driver,
      env: {
        IMAGES_BACKEND: "comfyui",
        IMAGES_BASE_URL: comfy.url,
        IMAGES_MODEL: "dreamshaper_8.safetensors",
        MODERATION_BASE_URL: `${moderation.url}/v1`,
        MODERATION_API_KEY: "sk-mod-secret",
      },
    });
    base = await h.listen();
    creator = await personAs(h, "free", "Cora");
  });
  afterAll(async () => {
    await h.stop();
    await comfy.close();
    await moderation.close();
  });

  const post = (who: Person, path: string, body: unknown, method = "POST") =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...(who.cookie ? { cookie: who.cookie } : {}), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const newChat = async (
    who: Person,
    over: Parameters<typeof insertTestCharacter>[2] = {},
    owner = creator,
  ) => {
    const bot = await insertTestCharacter(h.database.db, owner.id as string, {
      definitionVisible: true,
      persona: "{{char}} is a tall librarian with silver-rimmed glasses and a green cloak.",
      ...over,
    });
    const res = await post(who, "/api/conversations", { character_id: bot.id });
    expect(res.status).toBe(201);
    return (await res.json()) as ConversationCreated;
  };
  const image = (who: Person, conversationId: string, extra: Record<string, unknown> = {}) =>
    post(who, "/api/generate", { conversation_id: conversationId, type: "image", action: "send", ...extra });
  const eventsOf = async (res: Response): Promise<GenerationEvent[]> => {
    expect(res.status, await res.clone().text()).toBe(200);
    return (await readSse(res)).map((m) => m.event);
  };
  const messagesOf = (conversationId: string) =>
    h.database.db.select().from(messages).where(eq(messages.conversationId, conversationId));
  const storedImages = async () => {
    const keys: string[] = [];
    for await (const key of h.storage.list()) if (key.startsWith("chat-images/")) keys.push(key);
    return keys.sort();
  };

  it("makes a picture from the character's appearance and the chat, stores it, and puts it on a new bot message", async () => {
    const owner = await personAs(h, "basic", "Bea");
    const { conversation } = await newChat(owner);
    const events = await eventsOf(await image(owner, conversation.id));
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t !== "queued")).toEqual(["started", "done"]);
    const done = events.find((e) => e.type === "done");
    if (done?.type !== "done" || !done.message) throw new Error("no done");
    const message = done.message as Message;
    expect(message.role).toBe("bot");
    expect(message.image_prompt).toContain("Mira");
    expect(message.image_prompt).toContain("silver-rimmed glasses");
    expect(message.image_url).toMatch(/^\/api\/files\/chat-images\//);
    // The picture is what the image server made from that prompt.
    const file = await fetch(`${base}${message.image_url}`, { headers: { cookie: owner.cookie as string } });
    expect(file.status).toBe(200);
    expect(pngParameters(Buffer.from(await file.arrayBuffer()))).toBe(message.image_prompt);
    expect(comfy.workflows.at(-1)?.["6"]?.inputs.text).toBe(message.image_prompt);
    // Checked before and after, with the key, which never reaches the client.
    const asked = moderation.requests
      .slice(-2)
      .map((r) => (r.body.input as { type: string }[]).map((p) => p.type));
    expect(asked).toEqual([["text"], ["text", "image_url"]]);
    expect(moderation.requests.at(-1)?.authorization).toBe("Bearer sk-mod-secret");
    expect(JSON.stringify(events)).not.toContain("sk-mod-secret");
    const stored = (await messagesOf(conversation.id)).find((m) => m.id === message.id);
    expect(stored).toMatchObject({
      imageUrl: message.image_url,
      imagePrompt: message.image_prompt,
      state: "complete",
    });
  });

  it("a hidden definition stays out of the prompt: the public title stands for the appearance", async () => {
    const owner = await personAs(h, "basic");
    const { conversation } = await newChat(owner, { definitionVisible: false, persona: "SECRET-DEFINITION" });
    const done = (await eventsOf(await image(owner, conversation.id))).find((e) => e.type === "done");
    const prompt = done?.type === "done" ? (done.message?.image_prompt ?? "") : "";
    expect(prompt).toContain("Keeper of old maps");
    expect(prompt).not.toContain("SECRET-DEFINITION");
  });

  it("Edit image prompt: the new prompt is stored and the picture made again from it", async () => {
    const owner = await personAs(h, "premium");
    const { conversation } = await newChat(owner);
    const first = (await eventsOf(await image(owner, conversation.id))).find((e) => e.type === "done");
    const message = first?.type === "done" ? (first.message as Message) : null;
    if (!message) throw new Error("no picture");
    const edited = await post(
      owner,
      `/api/messages/${message.id}`,
      { image_prompt: "Mira reading by a window at dusk" },
      "PATCH",
    );
    expect(edited.status).toBe(200);
    const again = (
      await eventsOf(await image(owner, conversation.id, { action: "regenerate", message_id: message.id }))
    ).find((e) => e.type === "done");
    const remade = again?.type === "done" ? (again.message as Message) : null;
    expect(remade).toMatchObject({ id: message.id, image_prompt: "Mira reading by a window at dusk" });
    expect(remade?.image_url).not.toBe(message.image_url);
    expect(comfy.workflows.at(-1)?.["6"]?.inputs.text).toBe("Mira reading by a window at dusk");
    // A picture is made again, never continued as text.
    const continued = await post(owner, "/api/generate", {
      conversation_id: conversation.id,
      type: "text",
      action: "continue",
      message_id: message.id,
    });
    expect(continued.status).toBe(400);
  });

  it("an underage prompt is refused (imagePromptUnderage) by the edit, the generate and the chat's own prompt; nothing is stored", async () => {
    const owner = await personAs(h, "basic");
    const { conversation } = await newChat(owner);
    const first = (await eventsOf(await image(owner, conversation.id))).find((e) => e.type === "done");
    const message = first?.type === "done" ? (first.message as Message) : null;
    if (!message) throw new Error("no picture");
    const keys = await storedImages();
    const workflows = comfy.workflows.length;

    const edit = await post(
      owner,
      `/api/messages/${message.id}`,
      { image_prompt: "Mira as a 12 year old" },
      "PATCH",
    );
    expect(edit.status).toBe(400);
    expect(((await edit.json()) as ApiError).code).toBe("imagePromptUnderage");
    expect((await messagesOf(conversation.id)).find((m) => m.id === message.id)?.imagePrompt).toBe(
      message.image_prompt,
    );

    // A bot whose appearance refers to a child: the chat's own prompt is refused in the worker.
    const young = await newChat(owner, { persona: "{{char}} is a schoolgirl with pigtails." });
    const before = (await messagesOf(young.conversation.id)).length;
    const refused = await eventsOf(await image(owner, young.conversation.id));
    expect(refused.at(-1)).toEqual({
      type: "error",
      code: "imagePromptUnderage",
      message:
        "The image prompt might contain references to underage context, please consider making changes and try again.",
    });
    expect((await messagesOf(young.conversation.id)).length).toBe(before);
    // The classifier's verdict on the words counts too.
    const flagged = await newChat(owner, { persona: "{{char}} FORBIDDEN" });
    expect((await eventsOf(await image(owner, flagged.conversation.id))).at(-1)).toMatchObject({
      code: "imagePromptUnderage",
    });
    expect(comfy.workflows.length).toBe(workflows);
    expect(await storedImages()).toEqual(keys);
  });

  it("a picture the classifier refuses is never stored or shown (imageContentGuidelines)", async () => {
    const owner = await personAs(h, "basic");
    const { conversation } = await newChat(owner, { persona: "{{char}} stands in an UNSAFE-PICTURE pose." });
    const before = await messagesOf(conversation.id);
    const keys = await storedImages();
    const events = await eventsOf(await image(owner, conversation.id));
    expect(events.at(-1)).toEqual({
      type: "error",
      code: "imageContentGuidelines",
      message: "Sorry, we cannot display this image as it may violate our content guidelines.",
    });
    expect(comfy.workflows.at(-1)?.["6"]?.inputs.text).toContain("UNSAFE-PICTURE"); // it was made…
    expect(await storedImages()).toEqual(keys); // …and thrown away
    const after = await messagesOf(conversation.id);
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(after.every((m) => m.imageUrl === null)).toBe(true);
    // The chat is free again.
    expect(
      (
        await post(owner, "/api/generate", {
          conversation_id: conversation.id,
          type: "text",
          action: "send",
          content: "hi",
        })
      ).status,
    ).not.toBe(409);
  });

  describe("who may make pictures", () => {
    const cases: [Role, "public" | "private", number, string | null][] = [
      ["signed out", "public", 401, "unauthorized"],
      ["guest", "public", 403, "forbidden"],
      ["free", "public", 403, "forbidden"],
      ["minimal", "public", 403, "forbidden"],
      ["basic", "public", 200, null],
      ["basic", "private", 403, "forbidden"],
      ["premium", "public", 200, null],
      ["premium", "private", 200, null],
      ["admin", "private", 200, null],
      ["restricted", "public", 403, "restricted"],
    ];
    it.each(cases)("%s on a %s bot: %i", async (role, visibility, status, code) => {
      const who = await personAs(h, role);
      // A private bot is its own creator's; others chat with the creator's public one.
      const chatter = role === "signed out" || role === "restricted" ? await personAs(h, "basic") : who;
      const owner = visibility === "private" ? chatter : creator;
      const { conversation } = await newChat(chatter, { visibility }, owner);
      const res = await image(who, conversation.id);
      expect(res.status).toBe(role === "restricted" ? 403 : status);
      if (code) {
        const error = (await res.json()) as ApiError;
        expect(error.code).toBe(code);
        if (role === "free" || role === "guest" || role === "minimal")
          expect(error.error_type).toBe("planRequired");
        if (visibility === "private") expect(error.message).toMatch(/I'm All In/);
      } else {
        expect((await eventsOf(res)).at(-1)?.type).toBe("done");
      }
    });

    it("another member cannot make a picture in someone else's chat", async () => {
      const owner = await personAs(h, "basic");
      const other = await personAs(h, "premium");
      const { conversation } = await newChat(owner);
      const res = await image(other, conversation.id);
      expect([403, 404]).toContain(res.status);
      expect(await messagesOf(conversation.id)).toHaveLength(1);
    });

    it("a creator on the free plan gets the plan message on their own bot", async () => {
      const { conversation } = await newChat(creator);
      const res = await image(creator, conversation.id);
      expect(res.status).toBe(403);
      expect(((await res.json()) as ApiError).message).toBe(
        "Conversation images need the True Supporter or I'm All In plan.",
      );
    });
  });
});

describe.each(drivers)("a server with no image model on %s", (driver) => {
  let h: TestHearth;
  let base: string;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
    base = await h.listen();
  });
  afterAll(() => h.stop());

  it("answers plainly that there is no image model, and tells administrators how to add one", async () => {
    for (const role of ["basic", "admin"] as const) {
      const who = await personAs(h, role);
      const bot = await insertTestCharacter(h.database.db, who.id as string);
      const headers = { cookie: who.cookie as string, "content-type": "application/json" };
      const created = (await (
        await fetch(`${base}/api/conversations`, {
          method: "POST",
          headers,
          body: JSON.stringify({ character_id: bot.id }),
        })
      ).json()) as ConversationCreated;
      const res = await fetch(`${base}/api/generate`, {
        method: "POST",
        headers,
        body: JSON.stringify({ conversation_id: created.conversation.id, type: "image", action: "send" }),
      });
      expect(res.status).toBe(503);
      const error = (await res.json()) as ApiError;
      expect(error).toMatchObject({ code: "unavailable", error_type: "noImageModel" });
      expect(error.message).toMatch(/This server has no image model/);
      if (role === "admin") expect(error.message).toMatch(/IMAGES_BACKEND/);
      else expect(error.message).not.toMatch(/IMAGES_BACKEND/);
      const stored = await h.database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, created.conversation.id));
      expect(stored).toHaveLength(1);
    }
  });
});

describe.each(drivers)("with a training service on %s", (driver) => {
  let h: TestHearth;
  let base: string;
  let comfy: Awaited<ReturnType<typeof comfyUiStandin>>;
  beforeAll(async () => {
    comfy = await comfyUiStandin();
    h = await startTestHearth({
      driver,
      env: {
        IMAGES_BACKEND: "comfyui",
        IMAGES_BASE_URL: comfy.url,
        IMAGES_MODEL: "dreamshaper_8.safetensors",
        // Never reached here: nothing is submitted for training.
        TRAINING_BASE_URL: "http://127.0.0.1:9",
      },
    });
    base = await h.listen();
  });
  afterAll(async () => {
    await h.stop();
    await comfy.close();
  });

  it("a bot not trained yet is refused with imageTrainingNeeded; once ready it makes pictures", async () => {
    const who = await personAs(h, "premium");
    const bot = await insertTestCharacter(h.database.db, who.id as string);
    const headers = { cookie: who.cookie as string, "content-type": "application/json" };
    const created = (await (
      await fetch(`${base}/api/conversations`, {
        method: "POST",
        headers,
        body: JSON.stringify({ character_id: bot.id }),
      })
    ).json()) as ConversationCreated;
    const ask = () =>
      fetch(`${base}/api/generate`, {
        method: "POST",
        headers,
        body: JSON.stringify({ conversation_id: created.conversation.id, type: "image", action: "send" }),
      });
    const refused = await ask();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "conflict", error_type: "imageTrainingNeeded" });
    expect(comfy.workflows).toHaveLength(0);
    await h.database.db.update(characters).set({ loraStatus: "ready" }).where(eq(characters.id, bot.id));
    const made = (await readSse(await ask())).map((m) => m.event);
    expect(made.at(-1)?.type).toBe("done");
    expect(comfy.workflows).toHaveLength(1);
  });
});
