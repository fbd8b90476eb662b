import type { Character, ConversationCreated, Lorebook, Message, PromptReport } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSse } from "../../test/chat.ts";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../test/model.ts";
import { characters } from "../features/characters/schema.ts";
import { api, type Person, personAs } from "../features/characters/test-support.ts";

/**
 * The hidden-definition walk: a creator's public bot keeps its definition hidden
 * (definition_visible false), with a marker string in every definition field and in its
 * lorebook's entry names, keys and contents. A member chats with it, then every endpoint that
 * answers prompt, lore or character data is asked as that member: no marker may appear in any
 * answer. The member's own parts (their persona, their own lorebook) still show; the creator
 * still sees everything.
 */
const MARK = {
  persona: "MARKPERSONA7731",
  personality: "MARKPERSONALITY7731",
  scenario: "MARKSCENARIO7731",
  dialogue: "MARKDIALOGUE7731",
  system: "MARKSYSTEM7731",
  postHistory: "MARKPOSTHISTORY7731",
  loreName: "MARKLORENAME7731",
  loreContent: "MARKLORECONTENT7731",
  constantName: "MARKCONSTANTNAME7731",
  constantContent: "MARKCONSTANTCONTENT7731",
  bookName: "MARKBOOKNAME7731",
  frenchPersona: "MARKFRENCHPERSONA7731",
  frenchScenario: "MARKFRENCHSCENARIO7731",
};
const MARKERS = Object.values(MARK);
/** The hidden entry's key: the member types it (so it is in their own messages), but is not told it matched. */
const LORE_KEY = "lamp";

/** The markers found in a text (lower-cased, so a key matched in any case counts). */
const leaked = (text: string) => MARKERS.filter((m) => text.toLowerCase().includes(m.toLowerCase()));

describe.each(drivers)("a hidden definition stays hidden on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let base: string;
  let creator: Person;
  let member: Person;
  let bot: Character;
  let conversationId: string;
  let reply: Message;
  let generationId: string;
  const MEMBER_LORE = "Harbor bell of the member";

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1", HEARTH_RATE_LIMIT: "0" },
    });
    a = api(h);
    base = await h.listen();
    creator = await personAs(h, "free", "Creator");
    member = await personAs(h, "free", "Member");
    bot = await a.create(creator, {
      name: "Lantern Keeper",
      greeting: "Welcome to the lighthouse.",
      persona: `{{char}} keeps the lighthouse. ${MARK.persona}`,
      personality: `Quiet. ${MARK.personality}`,
      scenario: `A stormy night. ${MARK.scenario}`,
      dialogue: `<START>\n{{char}}: ${MARK.dialogue}`,
      system_prompt: `Stay in character. ${MARK.system}`,
      post_history_instructions: `Be brief. ${MARK.postHistory}`,
      definition_visible: false,
      visibility: "public",
      character_book: {
        name: MARK.bookName,
        entries: [
          { id: "lamp", name: MARK.loreName, keys: [LORE_KEY], content: `The lamp. ${MARK.loreContent}` },
          { id: "sea", name: MARK.constantName, constant: true, content: `The sea. ${MARK.constantContent}` },
        ],
      },
    });
    // Out of review, so members may chat with it.
    await h.database.db
      .update(characters)
      .set({ moderationStatus: "approved" })
      .where(eq(characters.id, bot.id));
    const french = await a.put(
      `/api/characters/${bot.id}/translations/fr`,
      { persona: MARK.frenchPersona, scenario: MARK.frenchScenario, dialogue: "" },
      creator,
    );
    expect(french.statusCode, french.body).toBe(200);
    const own = await a.post(
      "/api/lorebooks",
      {
        name: "My harbor",
        entries: [{ id: "bell", name: MEMBER_LORE, keys: ["bell"], content: "The harbor bell rings." }],
      },
      member,
    );
    expect(own.statusCode, own.body).toBe(201);
    const chat = await a.post("/api/conversations", { character_id: bot.id }, member);
    expect(chat.statusCode, chat.body).toBe(201);
    conversationId = chat.json<ConversationCreated>().conversation.id;
    const attached = await a.put(
      `/api/conversations/${conversationId}/lorebooks`,
      { lorebook_ids: [own.json<Lorebook>().id] },
      member,
    );
    expect(attached.statusCode, attached.body).toBeLessThan(300);
    const sent = await fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: member.cookie as string, "content-type": "application/json" },
      body: JSON.stringify({
        type: "text",
        conversation_id: conversationId,
        action: "send",
        content: `Tell me about the ${LORE_KEY} and the bell.`,
      }),
    });
    expect(sent.status).toBe(200);
    const events = await readSse(sent);
    const done = events.at(-1)?.event;
    if (done?.type !== "done" || !done.message)
      throw new Error(`the reply ended with ${JSON.stringify(done)}`);
    reply = done.message;
    const started = events.find((m) => m.event.type === "started")?.event;
    generationId = (started as { generation_id: string }).generation_id;
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("the prompt report shows the member's own parts and hides the creator's", async () => {
    const res = await a.get(`/api/messages/${reply.id}/prompt`, member);
    expect(res.statusCode, res.body).toBe(200);
    expect(leaked(res.body)).toEqual([]);
    const report = res.json<PromptReport>();
    expect(report.lore.map((e) => e.name)).toContain(MEMBER_LORE);
    // Both of the bot's entries were used; neither says its name, id or the key that matched.
    const hidden = report.lore.filter((e) => e.name === "Hidden by the creator");
    expect(hidden).toHaveLength(2);
    expect(hidden.map((e) => e.reason)).toEqual(["hidden", "hidden"]);
    expect(JSON.stringify(hidden)).not.toMatch(/lamp|sea/);
    expect(report.lore.find((e) => e.name === MEMBER_LORE)?.reason).toBe("bell");
    expect(report.persona_name).toBeTruthy();
  });

  it("no answer a member can get holds any part of the definition", async () => {
    const gets = [
      `/api/messages/${reply.id}/prompt`,
      `/api/conversations/${conversationId}`,
      `/api/conversations/${conversationId}/messages`,
      `/api/conversations/${conversationId}/lorebooks`,
      `/api/conversations`,
      `/api/characters/${bot.id}/conversations`,
      ...["sillytavern", "hearth", "markdown", "html"].map(
        (format) => `/api/conversations/${conversationId}/export?format=${format}`,
      ),
      `/api/generations/${generationId}/events`,
      `/api/characters/${bot.id}`,
      `/api/characters/${bot.id}?language=fr`,
      `/api/characters/${bot.id}?switch=T1`,
      `/api/characters/${bot.id}/translations`,
      `/api/characters/${bot.id}/export`,
      `/api/characters/${bot.id}/export?format=json`,
      `/api/characters/${bot.id}/export?format=charx`,
      `/api/characters/${bot.id}/rating`,
      `/api/characters?search=Lantern`,
      `/api/lorebooks`,
      `/api/users/favorites`,
      `/api/recommendations`,
    ];
    const found: string[] = [];
    for (const url of gets) {
      const res = await a.get(url, member);
      const body = res.rawPayload.toString("latin1");
      if (leaked(body).length) found.push(`${url} → ${res.statusCode}: ${leaked(body).join(", ")}`);
    }
    // Changes a member may try on the bot answer refusals that quote nothing of it.
    const tries = [
      await a.patch(`/api/characters/${bot.id}?switch=T1`, { name: "Mine now" }, member),
      await a.post(`/api/conversations/${conversationId}/clone`, { label: "Copy", mode: "full" }, member),
    ];
    for (const res of tries) {
      if (leaked(res.body).length) found.push(`${res.statusCode}: ${leaked(res.body).join(", ")}`);
    }
    expect(found).toEqual([]);
  });

  it("the account export holds nothing of the definition, even unpacked", async () => {
    const res = await a.get("/api/account/export", member);
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const found = Object.entries(files).flatMap(([name, data]) =>
      leaked(Buffer.from(data).toString("utf8")).map((m) => `${name}: ${m}`),
    );
    expect(Object.keys(files).some((name) => name.startsWith("conversations/"))).toBe(true);
    expect(found).toEqual([]);
  });

  it("the creator still sees the whole definition", async () => {
    const profile = await a.get(`/api/characters/${bot.id}`, creator);
    expect(profile.statusCode).toBe(200);
    for (const m of [
      MARK.persona,
      MARK.scenario,
      MARK.dialogue,
      MARK.system,
      MARK.loreName,
      MARK.loreContent,
    ]) {
      expect(profile.body).toContain(m);
    }
    const inFrench = await a.get(`/api/characters/${bot.id}?language=fr`, creator);
    expect(inFrench.body).toContain(MARK.frenchPersona);
    const card = await a.get(`/api/characters/${bot.id}/export?format=json`, creator);
    expect(card.statusCode).toBe(200);
    expect(card.rawPayload.toString("utf8")).toContain(MARK.loreContent);
  });
});
