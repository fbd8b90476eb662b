import type { ConversationCreated, GenerationEvent } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse, type SseMessage } from "../../../../test/chat.ts";
import { gatedServer } from "../../../../test/gated-openai-server.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../../test/harness.ts";
import { generations } from "../schema.ts";

describe("the line for the model, through the API (issue 15 item 2)", () => {
  let h: TestHearth;
  let base: string;
  let model: Awaited<ReturnType<typeof gatedServer>>;
  let characterId: string;

  beforeAll(async () => {
    model = await gatedServer();
    // One slot on the model server: every other reply waits in line.
    h = await startTestHearth({
      env: { LLM_BASE_URL: model.url, LLM_MODEL: "gated", LLM_SEQUENCES: "1", HEARTH_DAILY_LIMIT_FREE: "0" },
    });
    base = await h.listen();
    const creator = await h.signUp({ name: "Creator" });
    characterId = (await insertTestCharacter(h.database.db, creator.id)).id;
  });
  afterAll(async () => {
    await h.stop();
    model.close();
  });

  const post = (cookie: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  /** Sends `content` in a new chat and answers the `queued` event, leaving the reply to go on. */
  async function send(cookie: string, content: string) {
    const [queued] = await readSse(await open(cookie, content), (m) => m.event.type === "queued");
    return queued?.event as Extract<GenerationEvent, { type: "queued" }>;
  }

  /** Sends `content` in a new chat and answers the response, its events still to be read. */
  async function open(cookie: string, content: string) {
    const { conversation } = (await (
      await post(cookie, "/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
    const res = await post(cookie, "/api/generate", {
      type: "text",
      conversation_id: conversation.id,
      action: "send",
      content,
    });
    expect(res.status).toBe(200);
    return res;
  }

  /** Reads a stream in the background; `until` resolves at the first event matching. */
  function watch(res: Response) {
    const seen: GenerationEvent[] = [];
    const waiters: { match: (e: GenerationEvent) => boolean; resolve: (e: GenerationEvent) => void }[] = [];
    const finished = readSse(res, (m) => {
      seen.push(m.event);
      for (const w of [...waiters])
        if (w.match(m.event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m.event);
        }
      return false;
    });
    return {
      seen,
      finished,
      until: (match: (e: GenerationEvent) => boolean) =>
        new Promise<GenerationEvent>((resolve) => {
          const found = seen.find(match);
          if (found) resolve(found);
          else waiters.push({ match, resolve });
        }),
    };
  }
  const placeIs = (n: number) => (e: GenerationEvent) => e.type === "queued" && e.position === n;

  const eventsOf = async (cookie: string, id: string): Promise<SseMessage[]> =>
    readSse(await fetch(`${base}/api/generations/${id}/events`, { headers: { cookie } }));

  it("serves a subscriber before an earlier free member, and a stopped reply leaves the line at once", async () => {
    const first = await h.signUp({ name: "First" });
    const free = await h.signUp({ name: "Free" });
    const later = await h.signUp({ name: "Later" });
    const subscriber = await h.signUp({ name: "Subscriber" });
    await updateUser(h.database.db, subscriber.id, { role: "basic", status: "active" });

    await send(first.cookie, "first holds the slot");
    await model.received(1);
    const freeQueued = await send(free.cookie, "free waits");
    expect(freeQueued.position).toBe(1);
    expect(freeQueued.time_left_s).toBeGreaterThan(0);
    const laterStream = watch(await open(later.cookie, "later free waits"));
    const laterQueued = (await laterStream.until((e) => e.type === "queued")) as Extract<
      GenerationEvent,
      { type: "queued" }
    >;
    expect(laterQueued.position).toBe(2);
    // A subscriber's head start puts their reply ahead of the free members', who arrived first.
    const subscriberQueued = await send(subscriber.cookie, "subscriber goes first");
    expect(subscriberQueued.position).toBe(1);

    // /metrics tells an operator the line: three waiting, one running, on the model server.
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const capacity = `capacity="server:${new URL(model.url).host}/v1"`;
    expect(metrics).toContain(`hearth_replies_waiting{${capacity}} 3`);
    expect(metrics).toContain(`hearth_replies_running{${capacity}} 1`);
    expect(metrics).toMatch(new RegExp(`hearth_reply_oldest_wait_seconds\\{${capacity}\\} [\\d.]+`));

    // Stopping a reply still in line ends it now, while the one slot is still held.
    const stop = await post(free.cookie, `/api/generations/${freeQueued.generation_id}/stop`, {});
    expect(stop.status).toBeLessThan(300);
    const freeEvents = await eventsOf(free.cookie, freeQueued.generation_id);
    expect(freeEvents.at(-1)?.event).toMatchObject({ type: "done", message: { state: "stopped" } });
    const [row] = await h.database.db
      .select()
      .from(generations)
      .where(eq(generations.id, freeQueued.generation_id));
    expect(row?.status).toBe("stopped");
    expect(model.answering).toHaveLength(1);

    model.release();
    await model.received(2);
    expect(model.answering[1]).toBe("subscriber goes first");
    // The waiting client is told its new place as the line moves: next, then taken.
    await laterStream.until(placeIs(1));
    model.release();
    const subscriberEvents = await eventsOf(subscriber.cookie, subscriberQueued.generation_id);
    expect(subscriberEvents.at(-1)?.event).toMatchObject({
      type: "done",
      message: { content: "One moment, done.", state: "complete" },
    });
    await model.received(3);
    await laterStream.until((e) => e.type === "token");
    model.release();
    await laterStream.finished;
    expect(laterStream.seen.at(-1)).toMatchObject({ type: "done", message: { state: "complete" } });
    // No place is told once its tokens flow.
    const firstToken = laterStream.seen.findIndex((e) => e.type === "token");
    expect(laterStream.seen.findLastIndex((e) => e.type === "queued")).toBeLessThan(firstToken);
    // The stopped reply never reached the model.
    expect(model.answering).toEqual(["first holds the slot", "subscriber goes first", "later free waits"]);
  });
});
