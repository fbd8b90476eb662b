import { existsSync } from "node:fs";
import path from "node:path";
import type { ApiError, Persona } from "@hearth/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { AVATAR_MAX_BYTES } from "../../lib/avatars.ts";
import { api, type Person, personAs, pngBomb, testImage } from "../characters/test-support.ts";

/** Persona avatars go through the same checks and storage as character avatars. */
describe("persona avatars (POST/DELETE /api/personas/{id}/avatar)", () => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let me: Person;
  let other: Person;
  let persona: Persona;

  beforeAll(async () => {
    h = await startTestHearth();
    a = api(h);
    me = await personAs(h, "free");
    other = await personAs(h, "premium");
    const res = await a.post("/api/personas", { name: "Mira" }, me);
    persona = res.json<Persona>();
  });
  afterAll(async () => {
    await h.stop();
  });

  const url = () => `/api/personas/${persona.id}/avatar`;
  const onDisk = (avatarUrl: string) =>
    path.join(h.config.storage.filesDir, avatarUrl.replace("/api/files/", ""));

  it("accepts PNG, JPEG, WebP and GIF and serves square WebP avatars from storage", async () => {
    for (const format of ["png", "jpeg", "webp", "gif"] as const) {
      const res = await a.upload(url(), me, await testImage(format, 300, 200));
      expect(res.statusCode, `${format}: ${res.body}`).toBe(200);
      const p = res.json<Persona>();
      expect(p).toMatchObject({ id: persona.id, name: "Mira", is_default: true });
      expect(p.avatar_url).toMatch(new RegExp(`^/api/files/personas/${persona.id}/[0-9a-f]{16}-512\\.webp$`));
      const file = await h.app.inject({ method: "GET", url: p.avatar_url as string });
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("image/webp");
      expect(await sharp(file.rawPayload).metadata()).toMatchObject({
        format: "webp",
        width: 512,
        height: 512,
      });
      const thumb = await h.app.inject({
        method: "GET",
        url: (p.avatar_url as string).replace("-512.webp", "-128.webp"),
      });
      expect((await sharp(thumb.rawPayload).metadata()).width).toBe(128);
    }
    const listed = (await a.get("/api/personas", me)).json<{ personas: Persona[] }>().personas;
    expect(listed[0]?.avatar_url).toMatch(/-512\.webp$/);
  });

  it("replacing an avatar removes the old files", async () => {
    const first = (await a.upload(url(), me, await testImage("png"))).json<Persona>().avatar_url as string;
    const second = (await a.upload(url(), me, await testImage("png"))).json<Persona>().avatar_url as string;
    expect(second).not.toBe(first);
    expect((await h.app.inject({ method: "GET", url: first })).statusCode).toBe(404);
    expect(existsSync(onDisk(first))).toBe(false);
    expect(existsSync(onDisk(second))).toBe(true);
  });

  it("refuses a non-image (415), an oversized file (413), a PNG bomb (413) and a damaged image (400)", async () => {
    const pdf = await a.upload(url(), me, Buffer.from("%PDF-1.7 not an image"), { filename: "face.png" });
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json<ApiError>()).toEqual({
      code: "unsupportedMediaType",
      message: "This file is not a supported image. Upload a PNG, JPEG, WebP or GIF.",
    });
    const big = await a.upload(
      url(),
      me,
      Buffer.concat([await testImage("png"), Buffer.alloc(AVATAR_MAX_BYTES)]),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json<ApiError>()).toEqual({
      code: "payloadTooLarge",
      message: "The file is larger than 8 MB.",
    });
    const bomb = await a.upload(url(), me, await pngBomb());
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json<ApiError>().message).toContain("20000 x 20000 pixels");
    const cut = await a.upload(url(), me, (await testImage("png", 200, 200)).subarray(0, 60));
    expect(cut.statusCode).toBe(400);
    expect(cut.json<ApiError>().message).toContain("damaged or incomplete");
  });

  it("refuses malformed uploads with 4xx: wrong field, JSON instead of multipart, a cut-off body", async () => {
    const png = await testImage("png");
    const wrongField = await a.upload(url(), me, png, { field: "image" });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json<ApiError>().message).toContain("field named file");
    expect((await a.post(url(), { file: "data:image/png;base64,AAAA" }, me)).statusCode).toBe(415);
    const broken = await h.app.inject({
      method: "POST",
      url: url(),
      headers: { cookie: me.cookie ?? "", "content-type": "multipart/form-data; boundary=xyz" },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
    const badId = await a.upload("/api/personas/not-a-uuid/avatar", me, png);
    expect(badId.statusCode).toBe(400);
    expect(badId.json<ApiError>().code).toBe("invalidRequest");
  });

  it("only the owner changes the avatar: others 404, guests 403, signed out 401", async () => {
    const png = await testImage("png");
    const before = (await a.get(`/api/personas/${persona.id}`, me)).json<Persona>().avatar_url;
    const theirs = await a.upload(url(), other, png);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<ApiError>().error_type).toBe("persona_not_found");
    expect((await a.upload(url(), await personAs(h, "admin"), png)).statusCode).toBe(404);
    expect((await a.upload(url(), await personAs(h, "guest"), png)).statusCode).toBe(403);
    expect((await a.upload(url(), undefined, png)).statusCode).toBe(401);
    expect((await a.upload(url(), await personAs(h, "restricted"), png)).statusCode).toBe(403);
    expect((await a.delete(url(), other)).statusCode).toBe(404);
    expect((await a.get(`/api/personas/${persona.id}`, me)).json<Persona>().avatar_url).toBe(before);
  });

  it("DELETE removes the avatar and its files", async () => {
    const set = (await a.upload(url(), me, await testImage("png"))).json<Persona>();
    const res = await a.delete(url(), me);
    expect(res.statusCode).toBe(200);
    expect(res.json<Persona>().avatar_url).toBeNull();
    expect(existsSync(onDisk(set.avatar_url as string))).toBe(false);
    // Removing no avatar is fine.
    expect((await a.delete(url(), me)).statusCode).toBe(200);
  });

  it("deleting a persona removes its avatar files", async () => {
    const side = (await a.post("/api/personas", { name: "Side" }, me)).json<Persona>();
    const withAvatar = (
      await a.upload(`/api/personas/${side.id}/avatar`, me, await testImage("png"))
    ).json<Persona>();
    expect(existsSync(onDisk(withAvatar.avatar_url as string))).toBe(true);
    expect((await a.delete(`/api/personas/${side.id}`, me)).statusCode).toBe(204);
    expect(existsSync(onDisk(withAvatar.avatar_url as string))).toBe(false);
  });
});
