import type { ApiError, Character, ImportResult } from "@hearth/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_CARD } from "../../../test/fixtures/long-card.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { contentDisposition } from "./card-routes.ts";
import { base64, insertChunks, plainPng, textChunk, v2Card } from "./cards/test-helpers.ts";
import { api, type Person, personAs, testImage } from "./test-support.ts";

/** Card files through the API: POST /api/characters/import and GET /api/characters/{id}/export. */
describe("character card import and export", () => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person;
  let other: Person;

  beforeAll(async () => {
    h = await startTestHearth();
    a = api(h);
    creator = await personAs(h, "free");
    other = await personAs(h, "basic");
  });
  afterAll(async () => {
    await h.stop();
  });

  const pngCard = async (card: unknown = v2Card()) =>
    insertChunks(await plainPng(64, 64), [textChunk("chara", base64(card))]);

  it("imports a PNG card as a private bot with its avatar, lorebook and a report", async () => {
    const res = await a.upload("/api/characters/import", creator, await pngCard(), { filename: "mira.png" });
    expect(res.statusCode, res.body).toBe(201);
    const { character, report } = res.json<ImportResult>();
    expect(character).toMatchObject({
      name: "Mira Valen",
      visibility: "private",
      is_creator: true,
      has_lorebook: true,
      scenario: "A lighthouse at the edge of the known map.",
      moderationReport: { moderation_status: "approved" },
    });
    expect(character.tags).toContain("Fantasy");
    expect(character.avatar_url).toMatch(/-512\.webp$/);
    expect(character.token_count).toBeGreaterThan(0);
    expect(report.format).toBe("png_v2");
    expect(report.imported.length).toBeGreaterThan(0);
    const avatar = await h.app.inject({ method: "GET", url: character.avatar_url as string });
    expect((await sharp(avatar.rawPayload).metadata()).format).toBe("webp");
  });

  it("answers 413 to every upload over the size limit, never a damaged or wrong file", async () => {
    const base = await h.listen();
    // Just over the limit, where the file used to arrive cut at 20 MB and be read as a bad card.
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(21 * 1024 * 1024, 1)]), "big.png");
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/api/characters/import`, {
        method: "POST",
        body: form,
        headers: { cookie: creator.cookie as string },
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as ApiError).code).toBe("payloadTooLarge");
    }
  });

  it("names the card version it really read, and does not claim a picture it refused", async () => {
    const v1 = { name: "Old Bob", description: "A V1 card.", first_mes: "Hi." };
    const v1Png = await a.upload("/api/characters/import", creator, await pngCard(v1), {
      filename: "bob.png",
    });
    expect(v1Png.statusCode, v1Png.body).toBe(201);
    expect(v1Png.json<ImportResult>().report.format).toBe("png_v1");

    // 7000 x 7000 is over the avatar's pixel limit: the card imports, its picture does not.
    const huge = insertChunks(await plainPng(7000, 7000), [textChunk("chara", base64(v2Card()))]);
    const res = await a.upload("/api/characters/import", creator, huge, { filename: "huge.png" });
    expect(res.statusCode, res.body).toBe(201);
    const { character, report } = res.json<ImportResult>();
    expect(character.avatar_url).toBeNull();
    expect(report.imported.some((item) => item.startsWith("avatar"))).toBe(false);
    expect(report.warnings.join(" ")).toMatch(/picture was not used as the avatar/);
  });

  it("prices the imported definition against the default model's window", async () => {
    const res = await a.upload("/api/characters/import", creator, Buffer.from(JSON.stringify(LONG_CARD)), {
      filename: "maren.json",
    });
    expect(res.statusCode, res.body).toBe(201);
    const cost = res.json<ImportResult>().prompt_cost;
    expect(cost).toMatchObject({ is_demo: true, exact: true });
    expect(cost.window).toBeLessThanOrEqual(cost.model_window);
    expect(cost.definition_tokens).toBeGreaterThan(cost.window);
    expect(cost.trims.map((t) => t.section)).toEqual(expect.arrayContaining(["examples", "description"]));
  });

  it("imports a JSON card (no picture) and refuses what is not a card with the card's status", async () => {
    const json = await a.upload("/api/characters/import", creator, Buffer.from(JSON.stringify(v2Card())), {
      filename: "mira.json",
    });
    expect(json.statusCode, json.body).toBe(201);
    expect(json.json<ImportResult>().character.avatar_url).toBeNull();

    const plain = await a.upload("/api/characters/import", creator, await testImage("jpeg"));
    expect(plain.statusCode).toBe(415);
    expect(plain.json<ApiError>().code).toBe("unsupportedMediaType");
    const junk = await a.upload("/api/characters/import", creator, Buffer.from("{ not a card"));
    expect(junk.statusCode).toBe(400);
    expect(junk.json<ApiError>().code).toBe("invalidRequest");
    const empty = await a.upload("/api/characters/import", creator, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const notMultipart = await a.post("/api/characters/import", v2Card(), creator);
    expect(notMultipart.statusCode).toBe(415);
  });

  it("needs create_character: signed-out, guests, limited and restricted accounts are refused", async () => {
    const card = await pngCard();
    expect((await a.upload("/api/characters/import", undefined, card)).statusCode).toBe(401);
    expect((await a.upload("/api/characters/import", await personAs(h, "guest"), card)).statusCode).toBe(403);
    expect((await a.upload("/api/characters/import", await personAs(h, "limited"), card)).statusCode).toBe(
      403,
    );
    const restricted = await a.upload("/api/characters/import", await personAs(h, "restricted"), card);
    expect(restricted.json<ApiError>().code).toBe("restricted");
  });

  describe("export", () => {
    let bot: Character;
    beforeAll(async () => {
      bot = await a.create(creator, {
        name: "Quill Ravensong",
        title: "Archivist of lost songs",
        greeting: "*{{char}} dusts off a lute.* Welcome, {{user}}.",
        persona: "{{char}} remembers every song ever lost.",
        scenario: "A library that hums at night.",
        dialogue: "{{user}}: Sing?\n{{char}}: Only the forgotten ones.",
        tags: ["fantasy", "music"],
        alternate_greetings: ["{{char}} hums."],
        system_prompt: "Stay gentle.",
        visibility: "hidden",
      });
      await a.upload(`/api/characters/${bot.id}/avatar`, creator, await testImage("png", 300, 300));
    });

    for (const format of ["png", "charx", "json"] as const) {
      it(`round-trips a ${format} export through import`, async () => {
        const res = await a.get(`/api/characters/${bot.id}/export?format=${format}`, creator);
        expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
        const disposition = String(res.headers["content-disposition"]);
        expect(disposition).toContain("attachment;");
        expect(disposition).toContain(`Quill Ravensong.${format}`);
        const back = await a.upload("/api/characters/import", other, res.rawPayload, {
          filename: `quill.${format}`,
        });
        expect(back.statusCode, back.body).toBe(201);
        const imported = back.json<ImportResult>().character;
        for (const field of [
          "name",
          "title",
          "greeting",
          "persona",
          "scenario",
          "dialogue",
          "tags",
          "alternate_greetings",
          "system_prompt",
        ] as const) {
          expect(imported[field], field).toEqual(bot[field]);
        }
        expect(imported.creator_user_id).toBe(other.id);
        expect(imported.visibility).toBe("private");
        if (format !== "json") expect(imported.avatar_url).not.toBeNull();
      });
    }

    it("follows the definition's visibility: creator, admins, or anyone when it is shared", async () => {
      const url = `/api/characters/${bot.id}/export?format=json`;
      expect((await a.get(url, other)).statusCode).toBe(403);
      expect((await a.get(url)).statusCode).toBe(403);
      expect((await a.get(url, await personAs(h, "admin"))).statusCode).toBe(200);
      await a.patch(`/api/characters/${bot.id}`, { definition_visible: true }, creator);
      expect((await a.get(url, other)).statusCode).toBe(200);
      expect((await a.get(url)).statusCode).toBe(200);
      expect((await a.get(`/api/characters/${bot.id}/export?format=docx`, creator)).statusCode).toBe(400);
      const priv = await a.create(creator, { definition_visible: true });
      const hidden = await a.get(`/api/characters/${priv.id}/export`, other);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json<ApiError>().code).toBe("invalidAccess");
    });
  });

  it("writes Content-Disposition with an ASCII fallback and the UTF-8 name", () => {
    expect(contentDisposition('Zoë "the" Bard.png')).toBe(
      `attachment; filename="Zo_ _the_ Bard.png"; filename*=UTF-8''Zo%C3%AB%20%22the%22%20Bard.png`,
    );
  });
});
