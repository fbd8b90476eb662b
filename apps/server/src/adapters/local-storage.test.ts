import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { isValidKey } from "../ports/storage.ts";
import { LocalFileStorage } from "./local-storage.ts";

const root = mkdtempSync(path.join(tmpdir(), "hearth-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("local file storage", () => {
  const storage = new LocalFileStorage(path.join(root, "files"));

  it("puts, gets with a content type from the extension, and deletes", async () => {
    await storage.ping();
    await storage.put("avatars/c1/abc-512.webp", Buffer.from("webp bytes"), "image/webp");
    const got = await storage.get("avatars/c1/abc-512.webp");
    expect(got?.contentType).toBe("image/webp");
    expect(got?.body.toString()).toBe("webp bytes");
    // No temporary files are left beside it.
    expect(readdirSync(path.join(root, "files/avatars/c1"))).toEqual(["abc-512.webp"]);
    await storage.delete("avatars/c1/abc-512.webp");
    expect(await storage.get("avatars/c1/abc-512.webp")).toBeNull();
    await storage.delete("avatars/c1/abc-512.webp");
    expect(storage.url("avatars/c1/abc-512.webp")).toBe("/api/files/avatars/c1/abc-512.webp");
  });

  it("refuses keys that could leave its directory", async () => {
    for (const key of [
      "../x.webp",
      "a/../../x.webp",
      "/etc/passwd",
      "a//b.webp",
      ".hidden",
      "A.webp",
      "a\\b.webp",
      "",
    ]) {
      expect(isValidKey(key), key).toBe(false);
      await expect(storage.get(key), key).rejects.toThrow(/Invalid storage key/);
    }
    expect(isValidKey("avatars/0f/x_y-z.128.webp")).toBe(true);
  });
});

describe("storage configuration", () => {
  it("uses local files by default and needs credentials with S3_BUCKET", () => {
    const dataDir = path.join(root, "data");
    const config = loadConfig({ HEARTH_DATA_DIR: dataDir });
    expect(config.storage).toEqual({ filesDir: path.join(path.resolve(dataDir), "files"), s3: null });
    expect(() => loadConfig({ HEARTH_DATA_DIR: dataDir, S3_BUCKET: "b" })).toThrow(ConfigError);
    const s3 = loadConfig({
      HEARTH_DATA_DIR: dataDir,
      S3_BUCKET: "b",
      S3_ACCESS_KEY_ID: "k",
      S3_SECRET_ACCESS_KEY: "s",
      S3_ENDPOINT: "http://minio:9000",
    });
    expect(s3.storage.s3).toMatchObject({
      bucket: "b",
      endpoint: "http://minio:9000",
      region: "us-east-1",
      publicUrl: null,
    });
    expect(loadConfig({ HEARTH_DATA_DIR: dataDir }).reviewPublicBots).toBe(true);
    expect(
      loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_REVIEW_PUBLIC_BOTS: "false" }).reviewPublicBots,
    ).toBe(false);
  });
});
