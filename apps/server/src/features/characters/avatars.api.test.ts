import { existsSync } from "node:fs";
import path from "node:path";
import type { ApiError, Character } from "@hearth/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { AVATAR_MAX_BYTES } from "../../lib/avatars.ts";
import { sniffImageType } from "../../lib/image-type.ts";
import { api, type Person, personAs, pngBomb, testImage } from "./test-support.ts";

describe("avatars (POST/DELETE /api/characters/{id}/avatar, GET /api/files/...)", () => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person;
  let other: Person;
  let bot: Character;

  beforeAll(async () => {
    h = await startTestHearth();
    a = api(h);
    creator = await personAs(h, "free");
    other = await personAs(h, "premium");
    bot = await a.create(creator, { visibility: "hidden" });
  });
  afterAll(async () => {
    await h.stop();
  });

  const url = () => `/api/characters/${bot.id}/avatar`;

  it("accepts PNG, JPEG, WebP and GIF, and serves square WebP avatars with long cache headers", async () => {
    for (const format of ["png", "jpeg", "webp", "gif"] as const) {
      const res = await a.upload(url(), creator, await testImage(format, 300, 200), { filename: "face.bin" });
      expect(res.statusCode, `${format}: ${res.body}`).toBe(200);
      const avatarUrl = res.json<Character>().avatar_url as string;
      expect(avatarUrl).toMatch(/^\/api\/files\/avatars\/[0-9a-f-]+\/[0-9a-f]+-512\.webp$/);
      const file = await h.app.inject({ method: "GET", url: avatarUrl });
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("image/webp");
      expect(file.headers["cache-control"]).toContain("max-age=31536000");
      expect(file.headers["cache-control"]).toContain("immutable");
      const meta = await sharp(file.rawPayload).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 512, height: 512 });
      const thumb = await h.app.inject({ method: "GET", url: avatarUrl.replace("-512.webp", "-128.webp") });
      expect((await sharp(thumb.rawPayload).metadata()).width).toBe(128);
    }
  });

  it("strips metadata (EXIF) when re-encoding", async () => {
    const withExif = await sharp(await testImage("jpeg", 120, 120))
      .withExif({ IFD0: { Copyright: "secret-owner", Artist: "GPS somewhere" } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const res = await a.upload(url(), creator, withExif);
    const file = await h.app.inject({ method: "GET", url: res.json<Character>().avatar_url as string });
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(file.rawPayload.includes("secret-owner")).toBe(false);
  });

  it("replacing an avatar removes the old files", async () => {
    const first = (await a.upload(url(), creator, await testImage("png"))).json<Character>()
      .avatar_url as string;
    const second = (await a.upload(url(), creator, await testImage("png"))).json<Character>()
      .avatar_url as string;
    expect(second).not.toBe(first);
    expect((await h.app.inject({ method: "GET", url: first })).statusCode).toBe(404);
    const onDisk = path.join(h.config.storage.filesDir, first.replace("/api/files/", ""));
    expect(existsSync(onDisk)).toBe(false);
  });

  it("refuses a non-image with 415 and a clear message", async () => {
    const res = await a.upload(url(), creator, Buffer.from("%PDF-1.7 not an image"), {
      filename: "face.png",
    });
    expect(res.statusCode).toBe(415);
    expect(res.json<ApiError>()).toEqual({
      code: "unsupportedMediaType",
      message: "This file is not a supported image. Upload a PNG, JPEG, WebP or GIF.",
    });
    const svg = await a.upload(url(), creator, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(svg.statusCode).toBe(415);
  });

  it("refuses an oversized file with 413", async () => {
    const big = Buffer.concat([await testImage("png"), Buffer.alloc(AVATAR_MAX_BYTES)]);
    const res = await a.upload(url(), creator, big);
    expect(res.statusCode).toBe(413);
    expect(res.json<ApiError>()).toEqual({
      code: "payloadTooLarge",
      message: "The file is larger than 8 MB.",
    });
  });

  it("refuses a PNG bomb from its header, without decoding it", async () => {
    const bomb = await pngBomb();
    expect(bomb.length).toBeLessThan(AVATAR_MAX_BYTES);
    const started = Date.now();
    const res = await a.upload(url(), creator, bomb);
    expect(res.statusCode).toBe(413);
    expect(res.json<ApiError>().message).toContain("20000 x 20000 pixels");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses a damaged image and a malformed upload with 400", async () => {
    const png = await testImage("png", 200, 200);
    const cut = await a.upload(url(), creator, png.subarray(0, 60));
    expect(cut.statusCode).toBe(400);
    expect(cut.json<ApiError>().message).toContain("damaged or incomplete");
    const wrongField = await a.upload(url(), creator, png, { field: "image" });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json<ApiError>().message).toContain("field named file");
    const json = await a.post(url(), { file: "data:image/png;base64,AAAA" }, creator);
    expect(json.statusCode).toBe(415);
    const broken = await h.app.inject({
      method: "POST",
      url: url(),
      headers: { cookie: creator.cookie ?? "", "content-type": "multipart/form-data; boundary=xyz" },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
  });

  it("only the creator (or an admin) changes the avatar", async () => {
    const png = await testImage("png");
    expect((await a.upload(url(), other, png)).statusCode).toBe(403);
    expect((await a.upload(url(), undefined, png)).statusCode).toBe(401);
    expect((await a.upload(url(), await personAs(h, "guest"), png)).statusCode).toBe(403);
    expect((await a.upload(url(), await personAs(h, "admin"), png)).statusCode).toBe(200);
    expect((await a.delete(url(), other)).statusCode).toBe(403);
  });

  it("a new public bot in review may still get its first avatar, but not a replacement", async () => {
    const pub = await a.create(creator, { visibility: "public" });
    const first = await a.upload(`/api/characters/${pub.id}/avatar`, creator, await testImage("png"));
    expect(first.statusCode).toBe(200);
    const again = await a.upload(`/api/characters/${pub.id}/avatar`, creator, await testImage("png"));
    expect(again.statusCode).toBe(409);
    expect((await a.delete(`/api/characters/${pub.id}/avatar`, creator)).statusCode).toBe(409);
  });

  it("DELETE removes the avatar and its files", async () => {
    const set = (await a.upload(url(), creator, await testImage("png"))).json<Character>();
    const res = await a.delete(url(), creator);
    expect(res.statusCode).toBe(200);
    expect(res.json<Character>().avatar_url).toBeNull();
    expect((await h.app.inject({ method: "GET", url: set.avatar_url as string })).statusCode).toBe(404);
  });

  it("the file route refuses traversal and unknown keys with 404", async () => {
    for (const u of [
      "/api/files/../secret",
      "/api/files/%2e%2e/secret",
      "/api/files/avatars/x.webp",
      "/api/files/",
    ]) {
      const res = await h.app.inject({ method: "GET", url: u });
      expect(res.statusCode, u).toBe(404);
    }
  });

  it("sniffs types from bytes, not names", async () => {
    expect(sniffImageType(await testImage("png"))).toBe("png");
    expect(sniffImageType(await testImage("jpeg"))).toBe("jpeg");
    expect(sniffImageType(await testImage("webp"))).toBe("webp");
    expect(sniffImageType(await testImage("gif"))).toBe("gif");
    expect(sniffImageType(Buffer.from("GIF8"))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});
