import http from "node:http";
import type { ApiError, ChatImportReport, ImportResult, Lorebook } from "@hearth/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { v2Card } from "../characters/cards/test-helpers.ts";
import { characters } from "../characters/schema.ts";
import { multipartBody, type Person, personAs } from "../characters/test-support.ts";
import { stChat } from "../chat-transfer/test-support.ts";
import { conversations } from "../chats/schema.ts";
import { lorebooks } from "../lorebooks/schema.ts";
import { idempotencyKeys } from "./schema.ts";

/**
 * Imports with an Idempotency-Key: a retry after a lost answer gets the first answer again and
 * imports nothing more; the same key with another file is refused, and so is a retry while the
 * first still runs; keys expire after a day.
 */
describe.each(drivers)("idempotent imports on %s", (driver) => {
  let h: TestHearth;
  let base: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_RATE_LIMIT: "0" } });
    base = await h.listen();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const card = (name = "Mira") => Buffer.from(JSON.stringify(v2Card({ name })));
  const upload = (url: string, who: Person, file: Buffer, key?: string, filename = "card.json") => {
    const { body, contentType } = multipartBody(file, "file", filename);
    return h.app.inject({
      method: "POST",
      url,
      headers: {
        cookie: who.cookie as string,
        "content-type": contentType,
        ...(key ? { "idempotency-key": key } : {}),
      },
      payload: body,
    });
  };
  const importCard = (who: Person, file: Buffer, key?: string) =>
    upload("/api/characters/import", who, file, key);
  const botsOf = async (who: Person) =>
    (
      await h.database.db
        .select()
        .from(characters)
        .where(eq(characters.creatorUserId, who.id as string))
    ).length;
  const newKey = () => `key-${crypto.randomUUID()}`;

  it("a card imported twice with one key makes one bot and answers the same body", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    const first = await importCard(who, card(), key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await importCard(who, card(), key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await botsOf(who)).toBe(1);
    // The key is the member's own: another member's same key is another import.
    const other = await personAs(h, "free");
    const theirs = await importCard(other, card(), key);
    expect(theirs.json<ImportResult>().character.id).not.toBe(first.json<ImportResult>().character.id);
  });

  it("the same key with another file is refused (422 idempotencyKeyReused)", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    expect((await importCard(who, card("Mira"), key)).statusCode).toBe(201);
    const other = await importCard(who, card("Someone Else"), key);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json<ApiError>().code).toBe("idempotencyKeyReused");
    expect(await botsOf(who)).toBe(1);
  });

  it("without a key two imports make two bots, as before; a malformed key is refused (400)", async () => {
    const who = await personAs(h, "free");
    expect((await importCard(who, card())).statusCode).toBe(201);
    expect((await importCard(who, card())).statusCode).toBe(201);
    expect(await botsOf(who)).toBe(2);
    const short = await importCard(who, card(), "short");
    expect(short.statusCode, short.body).toBe(400);
    expect(short.json<ApiError>().code).toBe("invalidRequest");
    expect(await botsOf(who)).toBe(2);
  });

  it("a retry while the first request runs is told so (409 inProgress); an abandoned one runs again", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    const first = await importCard(who, card(), key);
    const stored = and(eq(idempotencyKeys.userId, who.id as string), eq(idempotencyKeys.key, key));
    // As the row stands while the first import has not answered yet.
    await h.database.db.update(idempotencyKeys).set({ status: null, answer: null }).where(stored);
    const running = await importCard(who, card(), key);
    expect(running.statusCode, running.body).toBe(409);
    expect(running.json<ApiError>().code).toBe("inProgress");
    // Its process went away long ago: the retry imports (the first import's bot stays).
    await h.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(stored);
    const retaken = await importCard(who, card(), key);
    expect(retaken.statusCode, retaken.body).toBe(201);
    expect(retaken.json<ImportResult>().character.id).not.toBe(first.json<ImportResult>().character.id);
    expect(await botsOf(who)).toBe(2);
  });

  it("keys expire after a day: the same key then imports again", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    expect((await importCard(who, card(), key)).statusCode).toBe(201);
    await h.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '24 hours 1 minute'` })
      .where(and(eq(idempotencyKeys.userId, who.id as string), eq(idempotencyKeys.key, key)));
    const later = await importCard(who, card(), key);
    expect(later.statusCode, later.body).toBe(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(await botsOf(who)).toBe(2);
    const rows = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
  });

  it("a failed import gives its key back: the retry runs", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    const junk = await importCard(who, Buffer.from("{ not a card"), key);
    expect(junk.statusCode).toBe(400);
    expect(await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual(
      [],
    );
  });

  it("an answer lost with the connection: the retry gets it, and no second bot", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    const { body, contentType } = multipartBody(card(), "file", "card.json");
    // The client sends the whole request and never reads the answer: the connection is dropped
    // once the server has committed and recorded it, as when a phone loses its network then.
    const req = http.request(`${base}/api/characters/import`, {
      method: "POST",
      headers: {
        cookie: who.cookie as string,
        origin: base,
        "content-type": contentType,
        "content-length": body.length,
        "idempotency-key": key,
      },
    });
    req.on("error", () => {});
    req.on("response", (answer) => answer.destroy());
    req.end(body);
    await vi.waitFor(
      async () => {
        const [row] = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
        expect(row?.status).toBe(201);
      },
      { timeout: 30_000, interval: 50 },
    );
    req.destroy();
    const retry = await importCard(who, card(), key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(await botsOf(who)).toBe(1);
    expect(retry.json<ImportResult>().character.name).toBe("Mira");
  });

  it("a chat file imported twice with one key makes one conversation", async () => {
    const who = await personAs(h, "free");
    const characterId = (await insertTestCharacter(h.database.db, who.id as string)).id;
    const url = `/api/conversations/import?character_id=${characterId}`;
    const key = newKey();
    const first = await upload(url, who, Buffer.from(stChat()), key, "chat.jsonl");
    expect(first.statusCode, first.body).toBeLessThan(300);
    const again = await upload(url, who, Buffer.from(stChat()), key, "chat.jsonl");
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json<ChatImportReport>()).toEqual(first.json<ChatImportReport>());
    const chats = await h.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.userId, who.id as string));
    expect(chats).toHaveLength(1);
    const other = await upload(url, who, Buffer.from(stChat("Sam")), key, "chat.jsonl");
    expect(other.statusCode, other.body).toBe(422);
    // Without a key the streamed import runs as before.
    expect((await upload(url, who, Buffer.from(stChat()), undefined, "chat.jsonl")).statusCode).toBeLessThan(
      300,
    );
    expect(
      await h.database.db
        .select()
        .from(conversations)
        .where(eq(conversations.userId, who.id as string)),
    ).toHaveLength(2);
  });

  it("a lorebook imported twice with one key makes one book", async () => {
    const who = await personAs(h, "free");
    const key = newKey();
    const file = Buffer.from(
      JSON.stringify({ entries: { "0": { uid: 0, key: ["harbor"], content: "A harbor town." } } }),
    );
    const first = await upload("/api/lorebooks/import", who, file, key, "book.json");
    expect(first.statusCode, first.body).toBeLessThan(300);
    const again = await upload("/api/lorebooks/import", who, file, key, "book.json");
    expect(again.json<{ lorebook: Lorebook }>()).toEqual(first.json<{ lorebook: Lorebook }>());
    const books = await h.database.db
      .select()
      .from(lorebooks)
      .where(eq(lorebooks.userId, who.id as string));
    expect(books).toHaveLength(1);
  });
});
