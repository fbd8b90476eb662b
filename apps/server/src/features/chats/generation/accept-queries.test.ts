import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../../test/chat.ts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../../test/databases.ts";
import type { Db } from "../../../db/client.ts";
import { viewerColumns, viewerFromUser } from "../../accounts/index.ts";
import { users } from "../../accounts/schema.ts";
import { blockedCreators } from "../../blocking/schema.ts";
import { characters } from "../../characters/schema.ts";
import { personas } from "../../personas/schema.ts";
import { conversations, dailyUsage, generations, messages } from "../schema.ts";
import { acceptContext, type SendTurn, storeSend } from "./accept-queries.ts";
import { messagesSentToday, utcDay } from "./queries.ts";

/** Accepting a message's two statements (issue 15 item 4), on both databases. */
describe.each(drivers)("accepting a message on %s", (driver) => {
  let t: TestDatabase;
  let db: Db;
  let creator: string;
  let characterId: string;

  beforeAll(async () => {
    t = await createTestDatabase(driver);
    db = t.database.db;
    creator = await member("Creator");
    characterId = (await insertTestCharacter(db, creator)).id;
  });
  afterAll(async () => t.drop());

  async function member(name = "Member"): Promise<string> {
    const id = randomUUID();
    await db.insert(users).values({ id, name, email: `${id}@example.com` });
    return id;
  }
  async function chat(userId: string, userPersonaId: string | null = null): Promise<string> {
    const id = randomUUID();
    await db.insert(conversations).values({ id, userId, characterId, userPersonaId });
    return id;
  }
  const turn = (userId: string, conversationId: string, over: Partial<SendTurn> = {}): SendTurn => ({
    conversationId,
    userId,
    generationId: randomUUID(),
    content: "Hello there",
    modelId: "m",
    settings: { temperature: 0.5 },
    turnAt: new Date(Date.now() + 30_000),
    capacityKey: `server:${driver}`,
    maxRunning: 1,
    ...over,
  });

  it("reads what every check needs in one query", async () => {
    const owner = await member("Owner Name");
    const conversationId = await chat(owner);
    let found = await acceptContext(db, conversationId);
    expect(found?.conversation.userId).toBe(owner);
    expect(found?.character?.id).toBe(characterId);
    expect(found).toMatchObject({ sentToday: 0, creatorBlocked: false, defaultModelId: null });
    expect(found?.llmMode).toBe("disabled");
    // No persona: the owner's name, as personas/prompt.ts answers.
    expect(found?.persona).toEqual({ id: null, name: "Owner Name", description: "" });

    await db.insert(dailyUsage).values({ userId: owner, day: utcDay(), messages: 7 });
    await db.insert(blockedCreators).values({ userId: owner, creatorUserId: creator });
    await db.update(users).set({ defaultModelId: "big", llmMode: "hybrid" }).where(eq(users.id, owner));
    found = await acceptContext(db, conversationId);
    expect(found).toMatchObject({
      sentToday: 7,
      creatorBlocked: true,
      defaultModelId: "big",
      llmMode: "hybrid",
    });
    expect(await acceptContext(db, randomUUID())).toBeNull();
  });

  it("reads of the owner what a viewer is made of, not their settings, key or onboarding", async () => {
    const owner = await member("Narrow Owner");
    await db
      .update(users)
      .set({ highlights: "x".repeat(5000), llmApiKeyEncrypted: "sealed", onboarding: { step: "done" } })
      .where(eq(users.id, owner));
    const found = await acceptContext(db, await chat(owner));
    expect(Object.keys(found?.owner ?? {}).sort()).toEqual(Object.keys(viewerColumns).sort());
    expect(viewerFromUser(found?.owner as NonNullable<typeof found>["owner"])).toMatchObject({
      id: owner,
      name: "Narrow Owner",
      isGuest: false,
    });
    // The key is read once, for the own-key check, not again with the owner.
    expect(found?.llmKeyEncrypted).toBe("sealed");
  });

  it("reads what a reply's prompt needs of the character, and not a long card's extras", async () => {
    const owner = await member();
    const long = "x".repeat(20_000);
    // What the prompt reads of a character, its lorebook included.
    const forPrompt = {
      name: "Long Card",
      persona: "A persona.",
      scenario: "A scenario.",
      dialogue: "<START>",
      systemPrompt: "Be kind.",
      postHistoryInstructions: "Stay in character.",
      characterBook: { entries: [{ keys: ["castle"], content: "The castle is old." }] },
    };
    const [card] = await db
      .insert(characters)
      .values({
        creatorUserId: creator,
        ...forPrompt,
        extensions: { depth_prompt: { prompt: long }, regex_scripts: [long] },
        creatorNotes: long,
        alternateGreetings: [long, long],
        tags: ["fantasy"],
      })
      .returning();
    const id = randomUUID();
    await db.insert(conversations).values({ id, userId: owner, characterId: card?.id as string });
    const found = await acceptContext(db, id);
    expect(found?.character).toMatchObject({
      ...forPrompt,
      visibility: card?.visibility,
      creatorUserId: creator,
    });
    for (const extra of ["extensions", "creatorNotes", "alternateGreetings", "tags", "cardSource"])
      expect(found?.character).not.toHaveProperty(extra);
  });

  it("picks the chat's persona before the default one, and finds no deleted character", async () => {
    const owner = await member();
    const [fallback] = await db
      .insert(personas)
      .values({ userId: owner, name: "Default", highlights: "d", isDefault: true })
      .returning();
    const [chosen] = await db
      .insert(personas)
      .values({ userId: owner, name: "Chosen", highlights: "c" })
      .returning();
    expect((await acceptContext(db, await chat(owner)))?.persona).toEqual({
      id: fallback?.id,
      name: "Default",
      description: "d",
    });
    const withChosen = await chat(owner, chosen?.id ?? null);
    expect((await acceptContext(db, withChosen))?.persona.name).toBe("Chosen");

    const other = (await insertTestCharacter(db, creator)).id;
    const gone = randomUUID();
    await db.insert(conversations).values({ id: gone, userId: owner, characterId: other });
    await db.update(characters).set({ deletedAt: new Date() }).where(eq(characters.id, other));
    expect((await acceptContext(db, gone))?.character).toBeNull();
  });

  it("stores a send in one statement: claim, both messages in order, the generation, the day's count", async () => {
    const owner = await member();
    const conversationId = await chat(owner);
    const t1 = turn(owner, conversationId);
    const stored = await storeSend(db, t1);
    expect(stored?.position).toBe(1);
    const rows = await db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(asc(messages.seq));
    expect(rows.map((m) => [m.role, m.content, m.state])).toEqual([
      ["user", "Hello there", "complete"],
      ["bot", "", "streaming"],
    ]);
    expect(rows.map((m) => m.id)).toEqual([stored?.userMessage.id, stored?.reply.id]);
    expect(rows.map((m) => m.seq)).toEqual([stored?.userMessage.seq, stored?.reply.seq]);
    expect(rows[0]?.alternatives).toEqual(["Hello there"]);
    const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
    expect(conversation).toMatchObject({
      activeGenerationId: t1.generationId,
      messageCount: 2,
      lastMessagePreview: "",
      lastMessageRole: "bot",
    });
    const [generation] = await db.select().from(generations).where(eq(generations.id, t1.generationId));
    expect(generation).toMatchObject({
      status: "queued",
      action: "send",
      messageId: stored?.reply.id,
      userId: owner,
      modelId: "m",
      settings: { temperature: 0.5 },
      capacityKey: t1.capacityKey,
      maxRunning: 1,
    });
    expect(generation?.turnAt.getTime()).toBe(t1.turnAt.getTime());
    expect(await messagesSentToday(db, owner)).toBe(1);

    // A second send while the reply is being written: nothing at all is written.
    expect(await storeSend(db, turn(owner, conversationId))).toBeNull();
    expect(await db.select().from(messages).where(eq(messages.conversationId, conversationId))).toHaveLength(
      2,
    );
    expect(await messagesSentToday(db, owner)).toBe(1);
  });

  it("answers the reply's place in line among those queued for its capacity", async () => {
    const first = await member();
    const second = await member();
    const early = turn(first, await chat(first), { turnAt: new Date(Date.now() - 60_000), capacityKey: "q" });
    expect((await storeSend(db, early))?.position).toBe(1);
    // Behind the earlier turn on its capacity; another capacity's line does not count.
    await storeSend(db, turn(first, await chat(first), { capacityKey: "other" }));
    expect((await storeSend(db, turn(second, await chat(second), { capacityKey: "q" })))?.position).toBe(2);
    const ahead = turn(second, await chat(second), {
      turnAt: new Date(Date.now() - 120_000),
      capacityKey: "q",
    });
    expect((await storeSend(db, ahead))?.position).toBe(1);
  });
});
