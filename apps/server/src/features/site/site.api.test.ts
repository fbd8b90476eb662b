import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type ApiError,
  type CharacterPage,
  type ConversationCreated,
  EASTER_REFUSAL,
  type MarkdownPage,
  PAGE_SLUGS,
  type SiteConfig,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { characters } from "../characters/schema.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";

/** GET /api/site, the Markdown pages (the operator's file wins) and the Easter code by role. */
describe.each(drivers)("site on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: {
        HEARTH_BRAND_NAME: "Ember",
        HEARTH_LOGO_URL: "https://cdn.example/logo.svg",
        HEARTH_SALE: "true",
        HEARTH_EASTER_CODE: "EGG-2026",
        HEARTH_ANDROID_URL: "https://cdn.example/ember.apk",
        HEARTH_APP_ID_ROLEPLAY: "com.example.ember",
      },
    });
    a = api(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers the public configuration to anyone", async () => {
    const res = await a.get("/api/site");
    expect(res.statusCode, res.body).toBe(200);
    const site = res.json<SiteConfig>();
    expect(site.brand).toEqual({
      name: "Ember",
      logo_url: "https://cdn.example/logo.svg",
      accent: "#f97316",
    });
    expect(site.edition).toBe("roleplay");
    expect(site.partner).toEqual({ enabled: false, logout_url: null });
    expect(site.nsfw_forbidden).toBe(false);
    expect(site.sale_active).toBe(true);
    expect(site.easter_giveaway).toBe(true);
    expect(site.mobile_applications).toEqual([
      { type: "android", download_url: "https://cdn.example/ember.apk" },
    ]);
    expect(site.application_ids).toEqual({ roleplay: "com.example.ember", family: null });
    expect(site.footer.statement_2257).toBe(true);
    expect(site.footer.resources.map((l) => l.url)).toContain("/privacy");
  });

  it("serves every bundled page, and an operator's file in place of one", async () => {
    for (const slug of PAGE_SLUGS) {
      const res = await a.get(`/api/pages/${slug}`);
      expect(res.statusCode, slug).toBe(200);
      expect(res.json<MarkdownPage>().markdown).toMatch(/^# /);
    }
    const dir = path.join(h.config.dataDir, "pages");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "terms.md"), "# Our own terms\n\nBe kind.\n");
    const terms = await a.get("/api/pages/terms");
    expect(terms.json<MarkdownPage>()).toEqual({ slug: "terms", markdown: "# Our own terms\n\nBe kind.\n" });
    // The other pages keep the bundled text.
    expect((await a.get("/api/pages/privacy")).json<MarkdownPage>().markdown).toMatch(/^# Privacy Policy/);
  });

  it("refuses a page that is not in the list, whatever the path tries", async () => {
    for (const slug of ["secret", "..%2Fsecret", "privacy.md"]) {
      expect((await a.get(`/api/pages/${slug}`)).statusCode, slug).toBe(400);
    }
    // `..` itself is resolved away by the router before any page is looked up.
    expect((await a.get("/api/pages/%2e%2e")).statusCode).toBe(404);
  });

  const easter: [Role, number][] = [
    ["signed out", 401],
    ["guest", 403],
    ["free", 403],
    ["minimal", 403],
    ["basic", 403],
    ["premium", 200],
    ["admin", 403],
    ["restricted", 403],
  ];
  it.each(easter)("the Easter code for %s answers %i", async (role, status) => {
    const who: Person = await personAs(h, role);
    const res = await a.get("/api/easter-code", who);
    expect(res.statusCode, res.body).toBe(status);
    if (status === 200) expect(res.json()).toEqual({ code: "EGG-2026" });
    else if (role !== "signed out" && role !== "restricted") {
      expect(res.json<ApiError>().message).toBe(EASTER_REFUSAL);
    }
  });

  it("refuses a premium account whose subscription is not active", async () => {
    const who = await personAs(h, "premium");
    await updateUser(h.database.db, who.id as string, { status: "expired" });
    const res = await a.get("/api/easter-code", who);
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiError>().message).toBe(EASTER_REFUSAL);
  });

  it("keeps partner sign-in closed outside partner mode", async () => {
    expect((await a.post("/api/partner/session", { token: "a.b" })).statusCode).toBe(404);
    expect((await a.post("/api/external/signup", { name: "Robin", username: "robin" })).statusCode).toBe(404);
  });
});

/** The family-safe edition hides NSFW bots everywhere, whatever the client asks. */
describe.each(drivers)("family edition on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person & { username: string };
  let safeId: string;
  let nsfwId: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_EDITION: "family" } });
    a = api(h);
    const u = await h.signUp({ name: "Maker", username: "familymaker" });
    creator = { role: "free", id: u.id, cookie: u.cookie, username: "familymaker" };
    safeId = (await insertTestCharacter(h.database.db, u.id, { name: "Sunny Lighthouse", tags: ["sea"] })).id;
    nsfwId = (
      await insertTestCharacter(h.database.db, u.id, {
        name: "Shady Lighthouse",
        tags: ["sea"],
        isNsfw: true,
      })
    ).id;
  });
  afterAll(async () => {
    await h.stop();
  });

  const ids = (page: { characters: { id: string }[] }) => page.characters.map((c) => c.id);

  it("says so in the site configuration", async () => {
    const site = (await a.get("/api/site")).json<SiteConfig>();
    expect(site.nsfw_forbidden).toBe(true);
    expect(site.footer.statement_2257).toBe(false);
  });

  it("leaves NSFW bots out of browse and search even when asked for", async () => {
    const browse = (await a.get("/api/characters?nsfw=true")).json<CharacterPage>();
    expect(ids(browse)).toContain(safeId);
    expect(ids(browse)).not.toContain(nsfwId);
    const search = (await a.get("/api/characters?nsfw=true&q=Lighthouse")).json<CharacterPage>();
    expect(ids(search)).toEqual([safeId]);
  });

  it("leaves them out of the creator page and the recommendations", async () => {
    const page = await a.get(`/api/creators/${creator.username}?nsfw=true`);
    expect(page.statusCode, page.body).toBe(200);
    expect(ids(page.json<CharacterPage>())).toEqual([safeId]);
    // Recommendations leave out the viewer's own bots: asked by someone else.
    const rec = await a.get("/api/recommendations?nsfw=true", await personAs(h, "free"));
    expect(rec.statusCode, rec.body).toBe(200);
    const recIds = ids(rec.json<CharacterPage>());
    expect(recIds).not.toContain(nsfwId);
    expect(recIds).toContain(safeId);
  });

  it("answers a direct read of an NSFW bot as missing", async () => {
    const viewer = await personAs(h, "premium");
    expect((await a.get(`/api/characters/${safeId}`, viewer)).statusCode).toBe(200);
    const res = await a.get(`/api/characters/${nsfwId}`, viewer);
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiError>().code).toBe("invalidAccess");
  });

  it("refuses to start, list or continue a chat with an NSFW bot asked for by id", async () => {
    const viewer = await personAs(h, "premium");
    const safe = await a.post("/api/conversations", { character_id: safeId }, viewer);
    expect(safe.statusCode, safe.body).toBe(201);
    const start = await a.post("/api/conversations", { character_id: nsfwId }, viewer);
    expect(start.statusCode).toBe(404);
    expect(start.json<ApiError>().code).toBe("invalidAccess");
    expect((await a.get(`/api/characters/${nsfwId}/conversations`, viewer)).statusCode).toBe(404);
    expect((await a.get(`/api/characters/${safeId}/conversations`, viewer)).statusCode).toBe(200);

    // A chat begun before its bot was marked NSFW cannot go on in this edition.
    const turned = await insertTestCharacter(h.database.db, creator.id ?? "", { name: "Turning Lighthouse" });
    const chat = await a.post("/api/conversations", { character_id: turned.id }, viewer);
    expect(chat.statusCode, chat.body).toBe(201);
    await h.database.db.update(characters).set({ isNsfw: true }).where(eq(characters.id, turned.id));
    const send = await a.post(
      "/api/generate",
      {
        type: "text",
        conversation_id: chat.json<ConversationCreated>().conversation.id,
        action: "send",
        content: "Hello?",
      },
      viewer,
    );
    expect(send.statusCode).toBe(404);
    expect(send.json<ApiError>().code).toBe("invalidAccess");
  });
});
