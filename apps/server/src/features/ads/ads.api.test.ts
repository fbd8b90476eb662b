import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import type { AdminAd, AdSlot, AdStats, AppSettings, ConversationCreated } from "@hearth/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { loadConfig } from "../../config.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { messages } from "../chats/schema.ts";
import { deleteEventsBefore } from "./queries.ts";
import { adDailyStats, productEvents } from "./schema.ts";

/** A stand-in ad server: records every bid request and answers one bid (or 204 when told). */
async function startAdServer() {
  const requests: { headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      requests.push({ headers: req.headers, body: JSON.parse(raw) });
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          seatbid: [
            {
              seat: "standin",
              bid: [
                {
                  id: "b1",
                  crid: "creative-7",
                  ext: {
                    text: "Maps of every sea",
                    link_url: "https://maps.example/",
                    advertiser: "Maps Ltd",
                  },
                },
              ],
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bid`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const AD = {
  name: "Map shop",
  text: "Old maps, new adventures",
  link_url: "https://maps.example/shop",
  image_url: null,
  advertiser: "Map Shop",
  tags: ["Fantasy"],
  nsfw: "sfw",
};

describe.each(drivers)("ads and product events on %s", (driver) => {
  let h: TestHearth;
  let partner: TestHearth;
  let external: TestHearth;
  let adServer: Awaited<ReturnType<typeof startAdServer>>;
  let admin: Person;
  let creator: Person;

  beforeAll(async () => {
    adServer = await startAdServer();
    h = await startTestHearth({
      driver,
      env: {
        HEARTH_EVENTS_PER_MINUTE: "6",
        HEARTH_FLAG_NEW_PROFILE: "true",
        HEARTH_ADS_IMAGE_ORIGINS: "https://cdn.ads.example/x",
      },
    });
    partner = await startTestHearth({ driver, env: { HEARTH_EDITION: "partner" } });
    external = await startTestHearth({
      driver,
      env: {
        HEARTH_ADS: "external",
        HEARTH_ADS_URL: adServer.url,
        HEARTH_ADS_MIN_MESSAGES: "4",
        HEARTH_ADS_INTERVAL: "3",
      },
    });
    admin = await personAs(h, "admin");
    creator = await personAs(h, "free", "Creator");
  });
  afterAll(async () => {
    await h?.stop();
    await partner?.stop();
    await external?.stop();
    await adServer?.close();
  });

  /** A new bot and a chat with it of `count` complete messages, owned by `who`. */
  async function chatWith(
    on: TestHearth,
    who: Person,
    count: number,
    bot: { tags?: string[]; isNsfw?: boolean } = {},
  ) {
    const owner = on === h ? creator : await personAs(on, "free");
    const character = await insertTestCharacter(on.database.db, owner.id as string, {
      tags: bot.tags ?? ["fantasy"],
      isNsfw: bot.isNsfw ?? false,
    });
    const res = await api(on).post("/api/conversations", { character_id: character.id }, who);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<ConversationCreated>().conversation.id;
    const db = on.database.db;
    await db.delete(messages).where(eq(messages.conversationId, id));
    for (let i = 1; i <= count; i++) {
      await db.insert(messages).values({
        id: randomUUID(),
        conversationId: id,
        role: i % 2 === 0 ? "user" : "bot",
        content: `message ${i}`,
      });
    }
    await db.execute(sql`update conversations set message_count = ${count} where id = ${id}`);
    return { id, characterId: character.id };
  }
  const slot = async (on: TestHearth, who: Person, conversationId: string, after: number) => {
    const res = await api(on).get(`/api/ads/slot?conversation_id=${conversationId}&after=${after}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdSlot>().ad;
  };
  const createAd = async (over: Partial<typeof AD> = {}) => {
    const res = await api(h).post("/api/admin/ads", { ...AD, ...over }, admin);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AdminAd>();
  };

  it("serves app settings from configuration, and partner mode turns ads and analytics off", async () => {
    const res = await api(h).get("/api/app-settings");
    expect(res.statusCode).toBe(200);
    // Ad images may come from the origins the operator names.
    expect(String(res.headers["content-security-policy"])).toMatch(
      /img-src [^;]*https:\/\/cdn\.ads\.example/,
    );
    expect(() => loadConfig({ HEARTH_DATA_DIR: tmpdir(), HEARTH_ADS_IMAGE_ORIGINS: "ftp://x" })).toThrow(
      /HEARTH_ADS_IMAGE_ORIGINS/,
    );
    expect(() => loadConfig({ HEARTH_DATA_DIR: tmpdir(), HEARTH_ADS: "external" })).toThrow(/HEARTH_ADS_URL/);
    const settings = res.json<AppSettings>();
    expect(settings.flags).toEqual({
      new_profile: true,
      chat_layout_v2: true,
      profile_v2: false,
      onboarding_v2: true,
    });
    expect(settings.limits.ads).toEqual({ enabled: true, min_messages: 10, interval: 10 });
    expect(settings.limits.waiting_room.time_shown_from_s).toBe(60);
    expect(settings.analytics).toBe(true);
    const p = (await api(partner).get("/api/app-settings")).json<AppSettings>();
    expect(p.partner).toBe(true);
    expect(p.limits.ads.enabled).toBe(false);
    expect(p.analytics).toBe(false);
    const e = (await api(external).get("/api/app-settings")).json<AppSettings>();
    expect(e.limits.ads).toEqual({ enabled: true, min_messages: 4, interval: 3 });
  });

  it("says on the privacy page what ads and analytics do, from the settings", async () => {
    const privacy = async (on: TestHearth) =>
      (await api(on).get("/api/pages/privacy")).json<{ markdown: string }>().markdown;
    const house = await privacy(h);
    expect(house).toContain("## Ads and product analytics");
    expect(house).toContain("nothing about your chats is sent");
    expect(house).toContain("kept for 90 days");
    const ext = await privacy(external);
    expect(ext).toContain("the last 10 messages of the chat");
    expect(ext).toContain("salted hash of your account id");
    const p = await privacy(partner);
    expect(p).toContain("This site shows no ads.");
    expect(p).toContain("keeps no record of actions in the chat screen");
  });

  it("lets only administrators define ads", async () => {
    for (const role of ["signed out", "guest", "free", "premium", "restricted"] as Role[]) {
      const who = await personAs(h, role);
      const res = await api(h).post("/api/admin/ads", AD, who);
      expect(res.statusCode, role).toBe(role === "signed out" ? 401 : 403);
      expect((await api(h).get("/api/admin/ads", who)).statusCode, role).toBe(
        role === "signed out" ? 401 : 403,
      );
    }
    const bad = await api(h).post("/api/admin/ads", { ...AD, link_url: "javascript:alert(1)" }, admin);
    expect(bad.statusCode).toBe(400);
    const ad = await createAd({ name: "Edited later" });
    const put = await api(h).put(`/api/admin/ads/${ad.id}`, { ...AD, name: "Edited", active: false }, admin);
    expect(put.json<AdminAd>()).toMatchObject({ name: "Edited", active: false });
    expect((await api(h).delete(`/api/admin/ads/${ad.id}`, admin)).statusCode).toBe(204);
    expect((await api(h).delete(`/api/admin/ads/${ad.id}`, admin)).statusCode).toBe(404);
  });

  it("shows an ad only past the threshold, at the interval, to free members in their own chats", async () => {
    const ad = await createAd();
    const free = await personAs(h, "free");
    const chat = await chatWith(h, free, 21);
    // More than 10 messages: the first slot follows the 11th, then every 10th.
    expect(await slot(h, free, chat.id, 10)).toBeNull();
    expect(await slot(h, free, chat.id, 11)).toMatchObject({ id: ad.id, code: "house", text: AD.text });
    expect(await slot(h, free, chat.id, 12)).toBeNull();
    expect(await slot(h, free, chat.id, 21)).toMatchObject({ id: ad.id });
    // Not past the messages the chat has, and not in someone else's chat.
    expect(await slot(h, free, chat.id, 31)).toBeNull();
    expect(await slot(h, await personAs(h, "free"), chat.id, 11)).toBeNull();
    // Paid tiers, administrators and guests never see ads; partner mode shows none.
    for (const role of ["minimal", "basic", "premium", "admin"] as Role[]) {
      const who = await personAs(h, role);
      expect(await slot(h, who, (await chatWith(h, who, 11)).id, 11), role).toBeNull();
    }
    const guest = await personAs(h, "guest");
    expect(await slot(h, guest, (await chatWith(h, guest, 11)).id, 11)).toBeNull();
    const partnerMember = await personAs(partner, "free");
    expect(
      await slot(partner, partnerMember, (await chatWith(partner, partnerMember, 11)).id, 11),
    ).toBeNull();
    const restricted = await personAs(h, "restricted");
    const refused = await api(h).get(`/api/ads/slot?conversation_id=${chat.id}&after=11`, restricted);
    expect(refused.statusCode).toBe(403);
  });

  it("targets house ads by tag and NSFW", async () => {
    await h.database.db.execute(sql`update ads set active = false`);
    const sfw = await createAd({ name: "sfw", tags: ["Sci-Fi"] });
    const nsfw = await createAd({ name: "nsfw", tags: [], nsfw: "nsfw" });
    const free = await personAs(h, "free");
    expect(await slot(h, free, (await chatWith(h, free, 11, { tags: ["sci-fi"] })).id, 11)).toMatchObject({
      id: sfw.id,
    });
    expect(await slot(h, free, (await chatWith(h, free, 11, { tags: ["romance"] })).id, 11)).toBeNull();
    expect(
      await slot(h, free, (await chatWith(h, free, 11, { tags: ["sci-fi"], isNsfw: true })).id, 11),
    ).toMatchObject({ id: nsfw.id });
    await h.database.db.execute(sql`update ads set active = true`);
  });

  it("counts ad views and clicks per ad and day, validates events and limits them per member", async () => {
    const ad = await createAd({ name: "counted" });
    const free = await personAs(h, "free");
    const chat = await chatWith(h, free, 11);
    const event = (name: string, over: Record<string, unknown> = {}) => ({
      event_name: name,
      ad_id: ad.id,
      code: "house",
      message_id: randomUUID(),
      content: AD.text,
      character_id: chat.characterId,
      conversation_id: chat.id,
      ...over,
    });
    for (const e of [event("adView"), event("adView"), event("adClick")]) {
      expect((await api(h).post("/api/event", e, free)).statusCode).toBe(204);
    }
    expect((await api(h).post("/api/event", event("adView", { message_id: "nope" }), free)).statusCode).toBe(
      400,
    );
    expect((await api(h).post("/api/event", event("adPeek"), free)).statusCode).toBe(400);
    expect((await api(h).post("/api/event", event("adView"))).statusCode).toBe(401);
    const stats = (await api(h).get(`/api/admin/ads/${ad.id}/stats`, admin)).json<AdStats>();
    expect(stats.days).toHaveLength(1);
    expect(stats.days[0]).toMatchObject({ views: 2, clicks: 1, ctr: 0.5 });
    const listed = (await api(h).get("/api/admin/ads", admin)).json<{ ads: AdminAd[] }>();
    expect(listed.ads.find((a) => a.id === ad.id)).toMatchObject({ views: 2, clicks: 1, ctr: 0.5 });
    // The allowance is 6 a minute: three more pass, the next is refused and not counted.
    for (let i = 0; i < 3; i++) {
      expect((await api(h).post("/api/event", event("adView"), free)).statusCode).toBe(204);
    }
    expect((await api(h).post("/api/event", event("adView"), free)).statusCode).toBe(429);
    const [row] = await h.database.db.select().from(adDailyStats).where(eq(adDailyStats.adId, ad.id));
    expect(row?.views).toBe(5);
  });

  it("keeps chat-UI events for analytics, none in partner mode, and deletes them after the retention", async () => {
    const free = await personAs(h, "free");
    const chat = await chatWith(h, free, 3);
    const ui = {
      event_name: "chatUi",
      action: "regenerate",
      character_id: chat.characterId,
      conversation_id: chat.id,
    };
    expect((await api(h).post("/api/event", ui, free)).statusCode).toBe(204);
    expect((await api(h).post("/api/event", { ...ui, action: "dance" }, free)).statusCode).toBe(400);
    const kept = await h.database.db
      .select()
      .from(productEvents)
      .where(eq(productEvents.userId, free.id as string));
    expect(kept.map((e) => e.action)).toEqual(["regenerate"]);

    const partnerMember = await personAs(partner, "free");
    const pchat = await chatWith(partner, partnerMember, 3);
    const sent = await api(partner).post(
      "/api/event",
      { ...ui, character_id: pchat.characterId, conversation_id: pchat.id },
      partnerMember,
    );
    expect(sent.statusCode).toBe(204);
    const none = await partner.database.db
      .select()
      .from(productEvents)
      .where(eq(productEvents.userId, partnerMember.id as string));
    expect(none).toEqual([]);

    await h.database.db
      .update(productEvents)
      .set({ createdAt: new Date(Date.now() - 100 * 86_400_000) })
      .where(eq(productEvents.userId, free.id as string));
    expect(await deleteEventsBefore(h.database.db, new Date(Date.now() - 90 * 86_400_000))).toBeGreaterThan(
      0,
    );
    const after = await h.database.db
      .select()
      .from(productEvents)
      .where(eq(productEvents.userId, free.id as string));
    expect(after).toEqual([]);
  });

  it("sends the external ad server nothing while it is off, and only the spec's fields when it is on", async () => {
    adServer.requests.length = 0;
    const free = await personAs(h, "free");
    await createAd({ name: "house only" });
    await slot(h, free, (await chatWith(h, free, 11)).id, 11);
    expect(adServer.requests).toEqual([]);

    const member = await personAs(external, "free");
    const chat = await chatWith(external, member, 12);
    expect(await slot(external, member, chat.id, 4)).toBeNull();
    expect(adServer.requests).toEqual([]);
    const ad = await slot(external, member, chat.id, 5);
    expect(ad).toMatchObject({ id: "creative-7", code: "standin", advertiser: "Maps Ltd" });
    expect(adServer.requests).toHaveLength(1);
    const body = adServer.requests[0]?.body as {
      user: { id: string };
      ext: { hearth: { conversation: { messages: { content: string }[] }; character: { id: string } } };
    };
    const sentMessages = body.ext.hearth.conversation.messages.map((m) => m.content);
    expect(sentMessages).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i + 3}`));
    expect(body.ext.hearth.character.id).toBe(chat.characterId);
    expect(body.user.id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(body)).not.toContain(member.id as string);
    // A premium member's chat asks nothing of it.
    const premium = await personAs(external, "premium");
    await slot(external, premium, (await chatWith(external, premium, 12)).id, 5);
    expect(adServer.requests).toHaveLength(1);
  });
});
