import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../test/chat.ts";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";
import {
  bigArchive,
  type Delays,
  flatPng,
  hearthChat,
  jsonlChat,
  once,
  postFile,
  whileProbing,
} from "../../test/hostile-uploads.ts";
import { DECODES_AT_ONCE, decodes } from "../adapters/sharp-images.ts";
import { type Person, personAs } from "../features/characters/test-support.ts";
import { chatReads } from "../features/chat-transfer/formats/threaded-reading.ts";

const MB = 1024 * 1024;

/**
 * Hostile uploads over real HTTP (a listening server, so the body really streams): each is
 * refused by its limit while it arrives, the server keeps answering, and the slowest small
 * request meanwhile is reported (not asserted: the machine is shared). The limits are not the
 * database's, so one driver (PGlite) runs it.
 */
describe("hostile uploads on pglite", () => {
  let h: TestHearth;
  let base: string;
  let member: Person;
  let headers: Record<string, string>;

  beforeAll(async () => {
    h = await startTestHearth({ driver: "pglite", env: { HEARTH_RATE_LIMIT: "0" } });
    base = await h.listen();
    member = await personAs(h, "free", "Sam");
    headers = { cookie: member.cookie as string };
  });
  afterAll(async () => {
    await h.stop();
  });

  const report = (what: string, delays: Delays, extra = "") =>
    console.log(
      `[hostile upload] ${what}: slowest GET /api/health ${delays.worstRequestMs.toFixed(1)} ms of ${delays.requests}, event loop delay at most ${delays.worstLoopDelayMs.toFixed(1)} ms${extra}`,
    );

  it("refuses a 1,000,000-line SillyTavern chat at its 100,001st message and keeps the connection", async () => {
    const characterId = (await insertTestCharacter(h.database.db, member.id as string)).id;
    const url = `${base}/api/conversations/import?character_id=${characterId}`;
    const [answer, delays] = await whileProbing(`${base}/api/health`, () =>
      postFile(url, headers, jsonlChat(1_000_000), { filename: "chat.jsonl" }),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(413);
    expect(answer.body.code).toBe("tooManyMessages");
    expect(answer.body.message).toContain("100,000 messages");
    // 100,000 lines are about 5 MB of the 55 MB file: what was sent past them is socket buffers.
    expect(answer.sentAtAnswer).toBeLessThan(20 * MB);
    expect(answer.connection).toBe("keep-alive");
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    report("1,000,000-line chat", delays, `, ${(answer.sentAtAnswer / MB).toFixed(1)} MB sent when refused`);
  }, 60_000);

  it("imports a 49 MB Hearth chat of 100,000 messages, read beside the event loop", async () => {
    const characterId = (await insertTestCharacter(h.database.db, member.id as string)).id;
    const url = `${base}/api/conversations/import?character_id=${characterId}`;
    let read = false;
    const sample = setInterval(() => {
      read ||= chatReads.load.running > 0;
    }, 1);
    // Two probes: one the database does not answer (only the event loop), and the health check,
    // which waits for the embedded database while the import's transaction holds it.
    const [[answer, loopOnly], delays] = await whileProbing(`${base}/api/health`, () =>
      whileProbing(`${base}/api/no-such-route`, () =>
        postFile(url, headers, hearthChat(100_000, 49 * MB), { filename: "chat.hearth.json" }),
      ),
    ).finally(() => clearInterval(sample));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ format: "hearth", messages: 100_000 });
    // The whole document was parsed, checked and converted on a reading thread.
    expect(read).toBe(true);
    const conversationId = (answer.body as { conversation_id?: string }).conversation_id as string;
    const stored = await fetch(`${base}/api/conversations/${conversationId}`, { headers });
    expect(await stored.json()).toMatchObject({ message_count: 100_000 });
    report(
      "49 MB Hearth chat, 100,000 messages, imported",
      delays,
      `; slowest request that needs no database ${loopOnly.worstRequestMs.toFixed(1)} ms of ${loopOnly.requests}`,
    );
  }, 300_000);

  it("refuses a 49 MB Hearth chat of 100,001 messages at the count", async () => {
    const characterId = (await insertTestCharacter(h.database.db, member.id as string)).id;
    const url = `${base}/api/conversations/import?character_id=${characterId}`;
    const [answer, delays] = await whileProbing(`${base}/api/health`, () =>
      postFile(url, headers, hearthChat(100_001, 49 * MB), { filename: "chat.hearth.json" }),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(413);
    expect(answer.body.code).toBe("tooManyMessages");
    expect(answer.body.message).toContain("100,000 messages");
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    report("49 MB Hearth chat, 100,001 messages", delays);
  }, 120_000);

  it("refuses a streamed 210 MB account archive as it passes 200 MB, without holding it", async () => {
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 5);
    const [answer, delays] = await whileProbing(`${base}/api/health`, () =>
      postFile(`${base}/api/account/import`, headers, bigArchive(210 * MB), { filename: "a.zip" }),
    ).finally(() => clearInterval(sample));
    const grown = (peak - before) / MB;
    // Held in memory, the archive alone would be 200 MB; spooled, only chunks in flight are.
    expect(grown).toBeLessThan(100);
    expect(answer.status, JSON.stringify(answer.body)).toBe(413);
    expect(answer.body.code).toBe("payloadTooLarge");
    expect(answer.sentAtAnswer).toBeGreaterThan(200 * MB);
    expect(answer.connection).toBe("keep-alive");
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    report("210 MB account archive", delays, `, buffers peaked ${grown.toFixed(0)} MB above the start`);
  }, 120_000);

  it("refuses an account archive whose Content-Length says 210 MB before reading it", async () => {
    const [answer, delays] = await whileProbing(`${base}/api/health`, () =>
      postFile(`${base}/api/account/import`, headers, bigArchive(210 * MB), {
        contentLength: 210 * MB + 300,
      }),
    );
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe("payloadTooLarge");
    expect(answer.sentAtAnswer).toBeLessThan(32 * MB);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    report("declared 210 MB account archive", delays);
  });

  it("refuses 8 parallel 36-megapixel PNG avatars from their headers", async () => {
    const png = await flatPng(6000, 6000);
    const [answers, delays] = await whileProbing(`${base}/api/health`, () =>
      Promise.all(
        Array.from({ length: 8 }, () =>
          postFile(`${base}/api/users/me/avatar`, headers, once(png), { method: "PUT", filename: "a.png" }),
        ),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ code: "payloadTooLarge" });
      expect(answer.body.message).toContain("6000 x 6000 pixels; the largest accepted is 25 megapixels");
    }
    report(`8 parallel 36-megapixel PNGs (${(png.length / 1024).toFixed(0)} KB each)`, delays);
  }, 60_000);

  it(`decodes at most ${DECODES_AT_ONCE} avatars at a time, the others waiting in line`, async () => {
    const png = await flatPng(2000, 2000);
    let mostRunning = 0;
    let mostWaiting = 0;
    const sample = setInterval(() => {
      mostRunning = Math.max(mostRunning, decodes.load.running);
      mostWaiting = Math.max(mostWaiting, decodes.load.waiting);
    }, 1);
    const [answers, delays] = await whileProbing(`${base}/api/health`, () =>
      Promise.all(
        Array.from({ length: 8 }, () =>
          postFile(`${base}/api/users/me/avatar`, headers, once(png), { method: "PUT", filename: "a.png" }),
        ),
      ),
    ).finally(() => clearInterval(sample));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(mostRunning).toBe(DECODES_AT_ONCE);
    expect(decodes.load).toEqual({ running: 0, waiting: 0 });
    report("8 parallel 4-megapixel PNGs, decoded", delays, `, at most ${mostWaiting} waiting`);
  }, 60_000);
});
