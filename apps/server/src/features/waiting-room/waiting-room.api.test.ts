import {
  type ApiError,
  type AppSettings,
  type ConversationCreated,
  QUEUE_ACCESS_IDLE_S,
  QUEUE_RETRY_AFTER_S,
  type QueueState,
} from "@hearth/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { HEAD_START_S } from "./policy.ts";
import { ABANDONED_AFTER_S } from "./queries.ts";
import { waitingRoom, waitingRoomSessions } from "./schema.ts";
import { DEFAULT_SERVICE_S } from "./service.ts";

const CAPACITY = 2;

/** The waiting room (issue 15 item 1): reading (GET) and joining (POST /api/queue) for every role, the line's order, bypasses, expiry, and generation refused while waiting. */
describe.each(drivers)("waiting room on %s", (driver) => {
  let h: TestHearth;
  let off: TestHearth;
  let a: ReturnType<typeof api>;
  let base: string;
  let creator: Person;

  beforeAll(async () => {
    const env = { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1", HEARTH_GUEST_SIGNINS_PER_DAY: "0" };
    h = await startTestHearth({ driver, env: { ...env, HEARTH_WAITING_ROOM_CAPACITY: String(CAPACITY) } });
    off = await startTestHearth({ driver, env });
    a = api(h);
    base = await h.listen();
    creator = await personAs(h, "free", "Creator");
  });
  afterAll(async () => {
    await h?.stop();
    await off?.stop();
  });
  beforeEach(async () => {
    await h.database.db.delete(waitingRoom);
    await h.database.db.delete(waitingRoomSessions);
  });

  type Chat = { character_id?: string; conversation_id?: string };
  /** Joins the line, or keeps the place in it (POST /api/queue), as a waiting client does. */
  const queue = async (who: Person, chat: Chat = {}, on = a) => {
    const res = await on.post("/api/queue", chat, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QueueState>();
  };
  /** Reads the state (GET /api/queue), which changes nothing. */
  const look = async (who: Person, chat: Chat = {}) => {
    const res = await a.get(`/api/queue?${new URLSearchParams(chat)}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QueueState>();
  };
  const people = (role: Role, n: number) => Promise.all(Array.from({ length: n }, () => personAs(h, role)));
  /** A chat with a new bot of `creator`, past its greeting unless `fresh` (a single-message chat bypasses). */
  const chatOf = async (who: Person, fresh = false) => {
    const character = await insertTestCharacter(h.database.db, creator.id as string);
    const res = await a.post("/api/conversations", { character_id: character.id }, who);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<ConversationCreated>().conversation.id;
    if (!fresh) await h.database.db.execute(sql`update conversations set message_count = 3 where id = ${id}`);
    return { id, characterId: character.id };
  };
  const generate = (who: Person, conversationId: string) =>
    fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: who.cookie as string, "content-type": "application/json" },
      body: JSON.stringify({ type: "text", conversation_id: conversationId, action: "send", content: "Hi" }),
    });

  it("with no capacity set the room is off: everyone has access", async () => {
    const who = await personAs(off, "free");
    const state = await queue(who, {}, api(off));
    expect(state).toMatchObject({ status: "access", enabled: false, position: null, bypass: null });
  });

  it("lets in as many as the capacity and puts the next in line, with a wait from the default service time", async () => {
    const [first, second, third] = await people("free", 3);
    for (const who of [first, second]) {
      const state = await queue(who as Person);
      expect(state).toMatchObject({ status: "access", enabled: true, position: null });
      expect(state.expires_in).toBe(QUEUE_ACCESS_IDLE_S);
    }
    const waiting = await queue(third as Person);
    expect(waiting).toMatchObject({ status: "waiting", position: 1, bypass: null, expires_in: null });
    expect(waiting.time_left).toBe(Math.ceil((1 / CAPACITY) * DEFAULT_SERVICE_S));
    expect(waiting.retry_after).toBe(QUEUE_RETRY_AFTER_S);
    // Asking again keeps the place.
    expect((await queue(third as Person)).position).toBe(1);
    const metrics = (await h.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toContain('hearth_waiting_room_members{status="access"} 2');
    expect(metrics).toContain('hearth_waiting_room_members{status="waiting"} 1');
  });

  it("takes its times from configuration: retry_after, Retry-After, the idle limit, and the app settings", async () => {
    const timed = await startTestHearth({
      driver,
      env: {
        LLM_MODEL: TEST_MODEL_PATH,
        LLM_THREADS: "1",
        HEARTH_WAITING_ROOM_CAPACITY: "1",
        HEARTH_WAITING_RETRY_AFTER_S: "45",
        HEARTH_WAITING_ACCESS_IDLE_S: "300",
        HEARTH_WAITING_TIME_SHOWN_FROM_S: "120",
      },
    });
    try {
      const t = api(timed);
      const [first, second] = await Promise.all([personAs(timed, "free"), personAs(timed, "free")]);
      expect(await queue(first, {}, t)).toMatchObject({ status: "access", expires_in: 300 });
      expect(await queue(second, {}, t)).toMatchObject({ status: "waiting", position: 1, retry_after: 45 });
      const settings = (await t.get("/api/app-settings")).json<AppSettings>();
      expect(settings.limits.waiting_room).toEqual({
        time_shown_from_s: 120,
        retry_after_s: 45,
        access_idle_s: 300,
      });
      const character = await insertTestCharacter(timed.database.db, first.id as string);
      const chat = (
        await t.post("/api/conversations", { character_id: character.id }, second)
      ).json<ConversationCreated>();
      await timed.database.db.execute(
        sql`update conversations set message_count = 3 where id = ${chat.conversation.id}`,
      );
      const refused = await t.post(
        "/api/generate",
        { type: "text", conversation_id: chat.conversation.id, action: "send", content: "Hi" },
        second,
      );
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.headers["retry-after"]).toBe("45");
    } finally {
      await timed.stop();
    }
  });

  it("admits no more than the capacity when many ask at once (one line under one lock)", async () => {
    const crowd = await people("free", 8);
    const states = await Promise.all(crowd.map((p) => queue(p)));
    expect(states.filter((s) => s.status === "access")).toHaveLength(CAPACITY);
    const positions = states.flatMap((s) => (s.position === null ? [] : [s.position])).sort((x, y) => x - y);
    expect(positions).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("orders the line by plan, then arrival: a paid member ahead of free ones, guests last", async () => {
    await people("free", CAPACITY).then((full) => Promise.all(full.map((p) => queue(p))));
    const guest = await personAs(h, "guest");
    const [free1, free2] = await people("free", 2);
    expect((await queue(guest)).position).toBe(1);
    expect((await queue(free1 as Person)).position).toBe(1);
    expect((await queue(free2 as Person)).position).toBe(2);
    expect((await queue(guest)).position).toBe(3);
    // A limited account keeps no skip_waiting_room, but its I'm All In plan still goes first.
    const paying = await personAs(h, "limited");
    await updateUser(h.database.db, paying.id as string, { role: "premium", status: "active" });
    expect((await queue(paying)).position).toBe(1);
    expect((await queue(free1 as Person)).position).toBe(2);
    expect((await queue(guest)).position).toBe(4);
  });

  it("ages: a guest who has waited longer than free members' head start is ahead of newer free members", async () => {
    await people("free", CAPACITY).then((full) => Promise.all(full.map((p) => queue(p))));
    const guest = await personAs(h, "guest");
    expect((await queue(guest)).position).toBe(1);
    const [early] = await people("free", 1);
    expect((await queue(early as Person)).position).toBe(1);
    expect((await queue(guest)).position).toBe(2);
    // The guest has now waited a minute longer than the head start free members have over guests.
    const waited = HEAD_START_S.guest - HEAD_START_S.free + 60;
    await h.database.db.execute(
      sql`update waiting_room set entered_at = entered_at - make_interval(secs => ${waited}) where user_id = ${guest.id as string}`,
    );
    const [late] = await people("free", 1);
    expect((await queue(guest)).position).toBe(1);
    expect((await queue(late as Person)).position).toBe(3);
  });

  it("skip_waiting_room and administrators never wait", async () => {
    await people("free", CAPACITY + 1).then((full) => Promise.all(full.map((p) => queue(p))));
    for (const role of ["minimal", "basic", "premium", "admin"] as const) {
      const state = await queue(await personAs(h, role));
      expect(state, role).toMatchObject({ status: "access", position: null, bypass: null, enabled: true });
    }
  });

  it("a creator's own bot and a chat of one message bypass the line", async () => {
    await people("free", CAPACITY).then((full) => Promise.all(full.map((p) => queue(p))));
    const mine = await insertTestCharacter(h.database.db, creator.id as string);
    expect(await queue(creator, { character_id: mine.id })).toMatchObject({
      status: "access",
      bypass: mine.id,
    });
    const member = await personAs(h, "free");
    expect((await queue(member, { character_id: mine.id })).status).toBe("waiting");
    const fresh = await chatOf(member, true);
    expect(await queue(member, { conversation_id: fresh.id })).toMatchObject({
      status: "access",
      bypass: fresh.characterId,
    });
    const old = await chatOf(member);
    expect(await queue(member, { conversation_id: old.id })).toMatchObject({
      status: "waiting",
      bypass: null,
    });
    // Someone else's new chat is no bypass.
    expect((await queue(await personAs(h, "free"), { conversation_id: fresh.id })).status).toBe("waiting");
  });

  it("refuses a generation while waiting (429 waitingRoom, Retry-After) and allows it with access or a bypass", async () => {
    const [first, second, third] = await people("free", 3);
    await queue(first as Person);
    await queue(second as Person);
    expect((await queue(third as Person)).status).toBe("waiting");
    const chat = await chatOf(third as Person);
    const refused = await generate(third as Person, chat.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(QUEUE_RETRY_AFTER_S));
    expect(((await refused.json()) as ApiError).code).toBe("waitingRoom");

    const fresh = await chatOf(third as Person, true);
    const bypassed = await generate(third as Person, fresh.id);
    expect(bypassed.status).toBe(200);
    expect((await readSse(bypassed)).at(-1)?.event.type).toBe("done");

    const admitted = await chatOf(first as Person);
    await h.database.db.execute(
      sql`update waiting_room set last_seen_at = now() - interval '60 seconds' where user_id = ${first?.id}`,
    );
    const allowed = await generate(first as Person, admitted.id);
    expect(allowed.status).toBe(200);
    expect((await readSse(allowed)).at(-1)?.event.type).toBe("done");
    // The generation kept the access alive.
    expect((await queue(first as Person)).expires_in).toBeGreaterThan(QUEUE_ACCESS_IDLE_S - 10);
  });

  it("idle access lapses: expired once, then back in line, and the slot goes to the next in line", async () => {
    const [first, second, third] = await people("free", 3);
    await queue(first as Person);
    await queue(second as Person);
    expect((await queue(third as Person)).position).toBe(1);
    // Admitted 25 minutes ago, last chatted 20 minutes and 5 seconds ago.
    const ago = (s: number) => sql.raw(`now() - interval '${s} seconds'`);
    await h.database.db.execute(
      sql`update waiting_room set granted_at = ${ago(1500)}, last_seen_at = ${ago(QUEUE_ACCESS_IDLE_S + 5)}
          where user_id = ${first?.id}`,
    );
    const lapsed = await queue(first as Person);
    expect(lapsed).toMatchObject({ status: "expired", position: 1 });
    expect(await queue(first as Person)).toMatchObject({ status: "waiting", position: 1 });
    expect((await queue(third as Person)).status).toBe("access");
    // The ended access was measured (admission to lapse: 1500 - 5 + 1200 s): it now drives the estimate.
    const waiting = await queue(first as Person);
    expect(waiting.time_left).toBe(Math.ceil((1 / CAPACITY) * (1500 - 5)));
    const chat = await chatOf(first as Person);
    expect((await generate(first as Person, chat.id)).status).toBe(429);
  });

  it("drops a waiting member who stopped asking (a closed tab) from the line", async () => {
    const [first, second, gone, next] = await people("free", 4);
    for (const who of [first, second, gone, next]) await queue(who as Person);
    expect((await queue(next as Person)).position).toBe(2);
    await h.database.db.execute(
      sql`update waiting_room set last_seen_at = now() - ${sql.raw(`interval '${ABANDONED_AFTER_S + 1} seconds'`)}
          where user_id = ${gone?.id}`,
    );
    expect((await queue(next as Person)).position).toBe(1);
  });

  it("reading changes nothing: GET tells a member outside the line so, and the others their state", async () => {
    const [first, second, third] = await people("free", 3);
    const rows = async () => (await h.database.db.select().from(waitingRoom)).length;
    expect(await look(third as Person)).toMatchObject({ status: "not_in_line", position: null });
    expect(await rows()).toBe(0);
    await queue(first as Person);
    await queue(second as Person);
    expect(await queue(third as Person)).toMatchObject({ status: "waiting", position: 1 });
    expect(await look(third as Person)).toMatchObject({ status: "waiting", position: 1 });
    const held = await look(first as Person);
    expect(held.status).toBe("access");
    expect(held.expires_in).toBeGreaterThan(QUEUE_ACCESS_IDLE_S - 10);
    // An idle access reads as lapsed, but stays as it was until the member joins again.
    await h.database.db.execute(
      sql`update waiting_room set last_seen_at = now() - interval '${sql.raw(String(QUEUE_ACCESS_IDLE_S + 5))} seconds'
          where user_id = ${first?.id}`,
    );
    expect(await look(first as Person)).toMatchObject({ status: "expired", position: null });
    expect(await look(third as Person)).toMatchObject({ status: "waiting", position: 1 });
    const statuses = await h.database.db.select({ status: waitingRoom.status }).from(waitingRoom);
    expect(statuses.map((r) => r.status).sort()).toEqual(["access", "access", "waiting"]);
    expect(await queue(first as Person)).toMatchObject({ status: "expired", position: 1 });
  });

  it("a page on another site cannot put a member in line: its GET reads, its POST is refused", async () => {
    const [member] = await people("free", 1);
    const crossSite = (method: "GET" | "POST") =>
      h.app.inject({
        method,
        url: "/api/queue",
        headers: {
          cookie: member?.cookie as string,
          origin: "http://evil.example",
          ...(method === "POST" ? { "content-type": "application/json" } : {}),
        },
        ...(method === "POST" ? { payload: "{}" } : {}),
      });
    const read = await crossSite("GET");
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<QueueState>().status).toBe("not_in_line");
    const refused = await crossSite("POST");
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json<ApiError>().code).toBe("crossOrigin");
    expect(await h.database.db.select().from(waitingRoom)).toHaveLength(0);
  });

  describe("who may ask", () => {
    const roles: [Role, number, string | null][] = [
      ["signed out", 401, "unauthorized"],
      ["restricted", 403, "restricted"],
      ["guest", 200, null],
      ["free", 200, null],
      ["limited", 200, null],
      ["minimal", 200, null],
      ["basic", 200, null],
      ["premium", 200, null],
      ["admin", 200, null],
    ];
    it.each(roles)("%s answers %i to reading and to joining", async (role, status, code) => {
      const who = await personAs(h, role);
      for (const res of [await a.get("/api/queue", who), await a.post("/api/queue", {}, who)]) {
        expect(res.statusCode, res.body).toBe(status);
        if (code) expect(res.json<ApiError>().code).toBe(code);
        else expect(["access", "waiting", "not_in_line"]).toContain(res.json<QueueState>().status);
      }
    });
  });
});
