import type { ApiError, CharacterPage, ConversationCreated } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../test/chat.ts";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../test/model.ts";
import { characters } from "../features/characters/schema.ts";
import { api, type Person, personAs } from "../features/characters/test-support.ts";
import { waitingRoom } from "../features/waiting-room/schema.ts";

/**
 * An administrator with restriction `limited` keeps the stored administrator flag but none of an
 * administrator's reach: over HTTP, against a plain administrator as the control.
 */
describe.each(drivers)("a restricted administrator on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let base: string;
  let member: Person;
  let admin: Person;
  let limitedAdmin: Person;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1", HEARTH_WAITING_ROOM_CAPACITY: "1" },
    });
    a = api(h);
    base = await h.listen();
    member = await personAs(h, "free", "Member");
    admin = await personAs(h, "admin", "Admin");
    limitedAdmin = await personAs(h, "admin", "Limited Admin");
    await updateUser(h.database.db, limitedAdmin.id as string, { restriction: "limited" });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const chatOf = async (who: Person) => {
    const bot = await insertTestCharacter(h.database.db, member.id as string);
    const res = await a.post("/api/conversations", { character_id: bot.id }, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ConversationCreated>().conversation.id;
  };
  const generate = (who: Person, conversationId: string, type: "text" | "image") =>
    fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: who.cookie as string, "content-type": "application/json" },
      body: JSON.stringify({ type, conversation_id: conversationId, action: "send", content: "Hi" }),
    });

  it("cannot export another member's chat (404, as for a missing one)", async () => {
    const theirs = await chatOf(member);
    const refused = await a.get(`/api/conversations/${theirs}/export?format=hearth`, limitedAdmin);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<ApiError>().code).toBe("notFound");
    expect(refused.body).not.toContain("Mira");
    const control = await a.get(`/api/conversations/${theirs}/export?format=hearth`, admin);
    expect(control.statusCode).toBe(200);
  });

  it("has its favourites of others' private bots left out, as any member's are", async () => {
    const someoneElse = await personAs(h, "free", "Other Creator");
    const bot = await insertTestCharacter(h.database.db, someoneElse.id as string, { name: "Soon Private" });
    const favourites = async (who: Person) => {
      const res = await a.get("/api/users/favorites", who);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<CharacterPage>().characters.map((c) => c.id);
    };
    for (const who of [admin, limitedAdmin]) {
      expect((await a.post(`/api/characters/${bot.id}/favorite`, {}, who)).statusCode).toBe(200);
    }
    await h.database.db.update(characters).set({ visibility: "private" }).where(eq(characters.id, bot.id));
    expect(await favourites(admin)).toContain(bot.id);
    expect(await favourites(limitedAdmin)).not.toContain(bot.id);
  });

  it("cannot have pictures made: the plan check refuses it before anything else", async () => {
    const mine = await chatOf(limitedAdmin);
    const refused = await generate(limitedAdmin, mine, "image");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ApiError).code).toBe("forbidden");
    // The plain administrator passes the plan check and hears that this server has no image model.
    const control = await generate(admin, await chatOf(admin), "image");
    expect(control.status).toBe(503);
    expect(((await control.json()) as ApiError & { error_type?: string }).message).toMatch(/image model/);
  });

  it("waits in the waiting room like a free member instead of skipping it", async () => {
    // The room's one place is taken by a member who was admitted.
    await h.database.db
      .insert(waitingRoom)
      .values({ userId: member.id as string, status: "access", priority: 0 });
    const mine = await chatOf(limitedAdmin);
    await h.database.db.execute(
      // Past the greeting: a chat of one message would bypass the line.
      `update conversations set message_count = 3 where id = '${mine}'`,
    );
    const refused = await generate(limitedAdmin, mine, "text");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as ApiError).code).toBe("waitingRoom");
    const theirs = await chatOf(admin);
    await h.database.db.execute(`update conversations set message_count = 3 where id = '${theirs}'`);
    const control = await generate(admin, theirs, "text");
    expect(control.status).toBe(200);
    expect((await readSse(control)).at(-1)?.event.type).toBe("done");
  });
});
