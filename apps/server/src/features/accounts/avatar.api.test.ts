import type { ApiError, Me } from "@hearth/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { AVATAR_MAX_BYTES } from "../../lib/avatars.ts";
import { FILES_ROUTE_PREFIX } from "../../ports/storage.ts";
import { api, multipartBody, type Person, personAs, testImage } from "../characters/test-support.ts";

/** PUT/DELETE /api/users/me/avatar: the profile's avatar, checked and stored like character avatars. */
describe("the member's own avatar", () => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  beforeAll(async () => {
    h = await startTestHearth();
    a = api(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  const upload = (who: Person | undefined, file: Buffer) => {
    const { body, contentType } = multipartBody(file, "file", "face.bin");
    return h.app.inject({
      method: "PUT",
      url: "/api/users/me/avatar",
      headers: { ...(who?.cookie ? { cookie: who.cookie } : {}), "content-type": contentType },
      payload: body,
    });
  };
  const stored = async (url: string | null) =>
    (await h.storage.get((url ?? "").slice(FILES_ROUTE_PREFIX.length))) !== null;
  const me = async (who: Person) => (await a.get("/api/me", who)).json<Me>();

  it("stores a square WebP, shows it as the account's avatar, and a replacement removes the old files", async () => {
    const member = await personAs(h, "free");
    const first = await upload(member, await testImage("jpeg", 300, 200));
    expect(first.statusCode, first.body).toBe(200);
    const firstUrl = first.json<Me>().avatar_url as string;
    expect(firstUrl).toMatch(new RegExp(`^/api/files/users/${member.id}/[0-9a-f]+-512\\.webp$`));
    expect((await me(member)).avatar_url).toBe(firstUrl);
    const file = await h.app.inject({ method: "GET", url: firstUrl });
    expect(file.statusCode).toBe(200);
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 512,
      height: 512,
    });

    const second = await upload(member, await testImage("png"));
    const secondUrl = second.json<Me>().avatar_url as string;
    expect(secondUrl).not.toBe(firstUrl);
    expect(await stored(secondUrl)).toBe(true);
    expect(await stored(firstUrl)).toBe(false);
    expect(await stored(firstUrl.replace("-512.webp", "-128.webp"))).toBe(false);
  });

  it("DELETE removes the avatar and its files", async () => {
    const member = await personAs(h, "free");
    const url = (await upload(member, await testImage("gif"))).json<Me>().avatar_url as string;
    const res = await a.delete("/api/users/me/avatar", member);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>().avatar_url).toBeNull();
    expect((await me(member)).avatar_url).toBeNull();
    expect(await stored(url)).toBe(false);
    expect((await h.app.inject({ method: "GET", url })).statusCode).toBe(404);
  });

  it("an address set by PATCH /api/users/me replaces the upload, whose files go; re-saving it keeps them", async () => {
    const member = await personAs(h, "free");
    const url = (await upload(member, await testImage("png"))).json<Me>().avatar_url as string;
    const same = await a.patch("/api/users/me", { avatar_url: url }, member);
    expect(same.statusCode, same.body).toBe(200);
    expect(await stored(url)).toBe(true);
    const res = await a.patch("/api/users/me", { avatar_url: "https://images.example/me.png" }, member);
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(member)).avatar_url).toBe("https://images.example/me.png");
    expect(await stored(url)).toBe(false);
    expect(await stored(url.replace("-512.webp", "-128.webp"))).toBe(false);
  });

  it("refuses what character avatars refuse: not an image (415), too large (413), damaged (400)", async () => {
    const member = await personAs(h, "free");
    const pdf = await upload(member, Buffer.from("%PDF-1.7 not an image"));
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json<ApiError>()).toEqual({
      code: "unsupportedMediaType",
      message: "This file is not a supported image. Upload a PNG, JPEG, WebP or GIF.",
    });
    const svg = await upload(member, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(svg.statusCode).toBe(415);
    const big = await upload(member, Buffer.concat([await testImage("png"), Buffer.alloc(AVATAR_MAX_BYTES)]));
    expect(big.statusCode).toBe(413);
    expect(big.json<ApiError>().code).toBe("payloadTooLarge");
    const cut = await upload(member, (await testImage("png", 200, 200)).subarray(0, 60));
    expect(cut.statusCode).toBe(400);
    expect(
      (await a.put("/api/users/me/avatar", { file: "data:image/png;base64,AAAA" }, member)).statusCode,
    ).toBe(415);
    // Nothing was stored by the refusals.
    expect((await me(member)).avatar_url).toBeNull();
  });

  it("changes only the caller's own avatar; guests, signed-out and restricted callers are refused", async () => {
    const owner = await personAs(h, "free");
    const other = await personAs(h, "premium");
    const ownUrl = (await upload(owner, await testImage("png"))).json<Me>().avatar_url as string;
    expect((await upload(other, await testImage("png"))).statusCode).toBe(200);
    expect((await a.delete("/api/users/me/avatar", other)).statusCode).toBe(200);
    expect((await me(owner)).avatar_url).toBe(ownUrl);
    expect(await stored(ownUrl)).toBe(true);

    expect((await upload(undefined, await testImage("png"))).statusCode).toBe(401);
    expect((await upload(await personAs(h, "guest"), await testImage("png"))).statusCode).toBe(403);
    const restricted = await upload(await personAs(h, "restricted"), await testImage("png"));
    expect(restricted.statusCode).toBe(403);
    expect(restricted.json<ApiError>().code).toBe("restricted");
  });

  it("deleting the account removes the avatar's files", async () => {
    const member = await personAs(h, "free");
    const url = (await upload(member, await testImage("png"))).json<Me>().avatar_url as string;
    expect((await a.delete("/api/users", member)).statusCode).toBe(204);
    expect(await stored(url)).toBe(false);
    expect(await stored(url.replace("-512.webp", "-128.webp"))).toBe(false);
  });
});
