import type { ApiError, ConversationCreated, Message } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { memories } from "../memories/schema.ts";

describe.each(drivers)("choosing a message's alternative on %s", (driver) => {
  let h: TestHearth;
  let owner: { cookie: string; id: string };
  let greeting: Message;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    owner = await h.signUp({ name: "Owner" });
    const character = await insertTestCharacter(h.database.db, owner.id);
    const res = await h.app.inject({
      method: "POST",
      url: "/api/conversations",
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      payload: JSON.stringify({ character_id: character.id }),
    });
    greeting = (res.json() as ConversationCreated).messages[0] as Message;
  });
  afterAll(async () => {
    await h?.stop();
  });

  const choose = (index: unknown) =>
    h.app.inject({
      method: "PUT",
      url: `/api/messages/${greeting.id}/alternative`,
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      payload: JSON.stringify({ alternative_index: index }),
    });

  it("the greeting offers its alternate greeting, and choosing it shows it", async () => {
    expect(greeting.alternative_count).toBe(2);
    const res = await choose(1);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Message).alternative_index).toBe(1);
  });

  it("an index past what an int4 column holds is bad input (400), not a database failure", async () => {
    for (const index of [2 ** 31, 2 ** 31 + 1, 2 ** 53 - 1, 2 ** 63, 1e20, -(2 ** 31) - 1]) {
      const res = await choose(index);
      expect([index, res.statusCode]).toEqual([index, 400]);
      expect((res.json() as ApiError).code).toBe("invalidRequest");
    }
    // Within int4 but past the message's alternatives: the message has no such alternative.
    const past = await choose(2 ** 31 - 1);
    expect(past.statusCode).toBe(400);
    expect((past.json() as ApiError).message).toBe("This message has no such alternative.");
  });

  it("a refused choice keeps the memories written from the message; a chosen one drops them", async () => {
    const [memory] = await h.database.db
      .insert(memories)
      .values({
        conversationId: greeting.conversation_id,
        content: "Remembered from the greeting",
        pinned: false,
        source: "auto",
        messageIds: [greeting.id],
      })
      .returning({ id: memories.id });
    const kept = () =>
      h.database.db
        .select()
        .from(memories)
        .where(eq(memories.id, memory?.id ?? ""));
    expect((await choose(2 ** 31 - 1)).statusCode).toBe(400);
    expect(await kept()).toHaveLength(1);
    expect((await choose(0)).statusCode).toBe(200);
    expect(await kept()).toHaveLength(0);
  });
});
