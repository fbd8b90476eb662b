import type { Character } from "@hearth/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth } from "../../test/harness.ts";
import { startTestS3, type TestS3 } from "../../test/s3-server.ts";
import { api, personAs, testImage } from "../features/characters/test-support.ts";
import { S3FileStorage } from "./s3-storage.ts";

describe("S3 file storage against an S3-compatible server", () => {
  let s3: TestS3;
  let storage: S3FileStorage;
  beforeAll(async () => {
    s3 = await startTestS3();
    storage = new S3FileStorage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      publicUrl: null,
    });
  });
  afterAll(async () => {
    await s3.stop();
  });

  it("puts, gets (with its content type), and deletes objects", async () => {
    await storage.ping();
    const body = Buffer.from([0, 1, 2, 250, 255]);
    await storage.put("avatars/abc/one-512.webp", body, "image/webp");
    const got = await storage.get("avatars/abc/one-512.webp");
    expect(got?.contentType).toBe("image/webp");
    expect(got?.body.equals(body)).toBe(true);
    await storage.delete("avatars/abc/one-512.webp");
    expect(await storage.get("avatars/abc/one-512.webp")).toBeNull();
    // Deleting what is not there is fine.
    await storage.delete("avatars/abc/one-512.webp");
  });

  it("answers null for a missing key and refuses malformed keys before any request", async () => {
    expect(await storage.get("nothing/here.webp")).toBeNull();
    await expect(storage.put("../escape.webp", Buffer.from("x"), "image/webp")).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(storage.get("/absolute")).rejects.toThrow(/Invalid storage key/);
  });

  it("reports failures (unknown bucket, wrong access key) as errors", async () => {
    const wrongBucket = new S3FileStorage({
      bucket: "no-such-bucket",
      endpoint: s3.endpoint,
      region: "us-east-1",
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      publicUrl: null,
    });
    await expect(wrongBucket.put("a.webp", Buffer.from("x"), "image/webp")).rejects.toThrow(/NoSuchBucket/);
    await expect(wrongBucket.ping()).rejects.toThrow(/S3 HEAD bucket/);
    const wrongKey = new S3FileStorage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      accessKeyId: "NOT-A-KEY",
      secretAccessKey: "x",
      publicUrl: null,
    });
    await expect(wrongKey.put("a.webp", Buffer.from("x"), "image/webp")).rejects.toThrow(
      /InvalidAccessKeyId/,
    );
  });

  it("addresses files through /api/files, or the public URL when one is set", () => {
    expect(storage.url("avatars/a/b-512.webp")).toBe("/api/files/avatars/a/b-512.webp");
    const cdn = new S3FileStorage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      publicUrl: "https://cdn.example.com/hearth/",
    });
    expect(cdn.url("avatars/a/b-512.webp")).toBe("https://cdn.example.com/hearth/avatars/a/b-512.webp");
  });

  it("a Hearth configured with S3_* stores avatars in the bucket and serves them", async () => {
    const h = await startTestHearth({ env: s3.env });
    try {
      expect(h.storage.driver).toBe("s3");
      const a = api(h);
      const creator = await personAs(h, "free");
      const bot = await a.create(creator);
      const res = await a.upload(
        `/api/characters/${bot.id}/avatar`,
        creator,
        await testImage("jpeg", 200, 300),
      );
      expect(res.statusCode, res.body).toBe(200);
      const avatarUrl = res.json<Character>().avatar_url as string;
      const key = avatarUrl.replace("/api/files/", "");
      expect((await storage.get(key))?.contentType).toBe("image/webp");
      const served = await h.app.inject({ method: "GET", url: avatarUrl });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe("image/webp");
      expect((await sharp(served.rawPayload).metadata()).width).toBe(512);
    } finally {
      await h.stop();
    }
  });
});
