import type { Character, CharacterPage, ImportResult } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { withCardTextChunks } from "./cards/png.ts";
import { fullV2Data, fullV3Data, portraitPngFile } from "./cards/roundtrip-corpus.ts";
import { readCardPointer } from "./cards/source.ts";
import { decodeChunk, plainPng, textChunksOf } from "./cards/test-helpers.ts";
import { characters } from "./schema.ts";
import { api, type Person, personAs, testImage } from "./test-support.ts";

/** Issue 19: a card goes in and comes out as it was, through the API and the database. */
describe.each(drivers)("lossless card round trip through the API on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
    creator = await personAs(h, "free", "Creator");
  });
  afterAll(async () => {
    await h.stop();
  });

  const importFile = async (file: Buffer, filename: string) => {
    const res = await a.upload("/api/characters/import", creator, file, { filename });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ImportResult>().character;
  };
  const exportFile = async (id: string, format: "png" | "json" | "charx") => {
    const res = await a.get(`/api/characters/${id}/export?format=${format}`, creator);
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };

  it("imports a 400x600 PNG card and exports the same picture and the same card", async () => {
    const card = { spec: "chara_card_v2", spec_version: "2.0", data: fullV2Data() };
    const file = await portraitPngFile(card, ["chara"]);
    const character = await importFile(file, "zoe.png");
    expect(character).toMatchObject({
      persona: fullV2Data().description,
      personality: fullV2Data().personality,
      title: "",
      creator_notes: fullV2Data().creator_notes,
    });
    expect(character.tags.slice(0, 3)).toEqual(["White Hair", "OC", "Slice of Life"]);
    const exported = await exportFile(character.id, "png");
    expect(withCardTextChunks(exported, []).equals(withCardTextChunks(file, []))).toBe(true);
    expect(await sharp(exported).metadata()).toMatchObject({ width: 400, height: 600 });
    const chunks = textChunksOf(exported);
    for (const chunk of ["chara", "ccv3"]) {
      const { data } = decodeChunk(chunks.get(chunk));
      for (const [key, value] of Object.entries(card.data))
        expect(data[key], `${chunk}: ${key}`).toEqual(value);
    }
  });

  it("keeps tag case for display while search and filters ignore it", async () => {
    const character = await importFile(
      Buffer.from(JSON.stringify({ spec: "chara_card_v3", spec_version: "3.0", data: fullV3Data() })),
      "zoe.json",
    );
    expect(character.tags).toContain("White Hair");
    const mine = await a.get(`/api/users/characters?q=${encodeURIComponent("WHITE hair")}`, creator);
    expect(mine.json<CharacterPage>().characters.map((c) => c.id)).toContain(character.id);
    const listed = await a.create(creator, { name: "Listed", visibility: "public", tags: ["Blue Eyes"] });
    expect(listed.tags).toEqual(["Blue Eyes"]);
    const browse = await a.get(`/api/characters?tags=${encodeURIComponent("BLUE EYES")}`);
    expect(browse.json<CharacterPage>().characters.find((c) => c.id === listed.id)?.tags).toEqual([
      "Blue Eyes",
    ]);
  });

  it("exports a card without a picture with a 400x600 portrait, and an uploaded avatar uncropped", async () => {
    const card = { spec: "chara_card_v2", spec_version: "2.0", data: fullV2Data({ name: "Ada Quill" }) };
    const character = await importFile(Buffer.from(JSON.stringify(card)), "ada.json");
    const portrait = await exportFile(character.id, "png");
    expect(await sharp(portrait).metadata()).toMatchObject({ width: 400, height: 600 });
    const { channels } = await sharp(portrait).stats();
    expect(Math.max(...channels.slice(0, 3).map((c) => c.stdev))).toBeGreaterThan(10);
    const upload = await a.upload(
      `/api/characters/${character.id}/avatar`,
      creator,
      await testImage("jpeg", 300, 500),
      {
        filename: "tall.jpg",
      },
    );
    expect(upload.statusCode, upload.body).toBe(200);
    expect(await sharp(await exportFile(character.id, "png")).metadata()).toMatchObject({
      width: 300,
      height: 500,
    });
  });

  it("exports an imported CharX with every file of its archive", async () => {
    const files = {
      "assets/icon/images/main.png": await plainPng(300, 450),
      "assets/other/image/bg.png": await plainPng(16, 9),
      "assets/audio/theme.mp3": Buffer.from([0x49, 0x44, 0x33, 1, 2, 3]),
    };
    const data = fullV3Data({
      assets: [
        { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
        { type: "background", uri: "embeded://assets/other/image/bg.png", name: "bg", ext: "png" },
        { type: "x-risu-audio", uri: "embeded://assets/audio/theme.mp3", name: "theme", ext: "mp3" },
      ],
    });
    const card = { spec: "chara_card_v3", spec_version: "3.0", data };
    const archive = zipSync({
      "card.json": Buffer.from(JSON.stringify(card)),
      ...Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)])),
    });
    const character = await importFile(Buffer.from(archive), "zoe.charx");
    const out = unzipSync(await exportFile(character.id, "charx"));
    for (const [path, bytes] of Object.entries(files))
      expect(Buffer.from(out[path] ?? []).equals(bytes), path).toBe(true);
    const written = JSON.parse(Buffer.from(out["card.json"] ?? []).toString("utf8"));
    for (const [key, value] of Object.entries(data)) expect(written.data[key], key).toEqual(value);

    // The row holds a small pointer; the card and archive sit in storage until the bot is deleted.
    const [row] = await h.database.db
      .select({ cardSource: characters.cardSource, artKey: characters.artKey })
      .from(characters)
      .where(eq(characters.id, character.id));
    const pointer = readCardPointer(row?.cardSource);
    expect(row?.cardSource?.length).toBeLessThan(400);
    const keys = [pointer?.dataKey, pointer?.archiveKey, row?.artKey] as string[];
    for (const key of keys) expect(await h.storage.get(key), key).not.toBeNull();
    expect((await a.delete(`/api/characters/${character.id}`, creator)).statusCode).toBe(204);
    for (const key of keys) expect(await h.storage.get(key), key).toBeNull();
  });

  it("exports an imported V1 JSON card as the same V1 file", async () => {
    const card = {
      name: "Ada 🧭",
      description: "مرحبا {{user}}",
      personality: "p",
      scenario: "",
      first_mes: "Hi",
      mes_example: "",
    };
    const character = await importFile(Buffer.from(JSON.stringify(card)), "ada.json");
    const written = JSON.parse((await exportFile(character.id, "json")).toString("utf8"));
    expect(JSON.stringify(written)).toBe(JSON.stringify(card));
  });

  it("edits the personality in Hearth and exports the edit", async () => {
    const card = { spec: "chara_card_v2", spec_version: "2.0", data: fullV2Data() };
    const character = await importFile(Buffer.from(JSON.stringify(card)), "zoe.json");
    const res = await a.patch(`/api/characters/${character.id}?switch=T1`, { personality: "Bold." }, creator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Character>().personality).toBe("Bold.");
    const written = JSON.parse((await exportFile(character.id, "json")).toString("utf8"));
    // A V2 file comes back as V2, with the edit.
    expect(written.spec).toBe("chara_card_v2");
    expect(written.data.personality).toBe("Bold.");
    expect(written.data.description).toBe(fullV2Data().description);
    expect(written.data.tags).toEqual(fullV2Data().tags);
  });
});
