import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HttpError } from "./errors.ts";
import { spoolUpload, type UploadStream } from "./upload.ts";

/** An upload that yields `parts`, then fails as the stream does past its limit when told to. */
function uploadOf(parts: string[], failAtEnd: boolean): UploadStream & { closed: boolean } {
  const upload = {
    filename: "a.zip",
    closed: false,
    close() {
      upload.closed = true;
    },
    chunks: (async function* () {
      for (const part of parts) yield Buffer.from(part);
      if (failAtEnd) throw new HttpError(413, "payloadTooLarge", "The file is larger than 1 MB.");
    })(),
  };
  return upload;
}

describe("spoolUpload", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-spool-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the upload to a private file and removes it when asked", async () => {
    const saved = await spoolUpload(uploadOf(["PK", "\u0003\u0004", "rest"], false), dir);
    expect(saved.size).toBe(8);
    expect(readFileSync(saved.path, "latin1")).toBe("PK\u0003\u0004rest");
    await saved.remove();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("passes the limit's 413 on, with the partial file already deleted", async () => {
    const upload = uploadOf(["x".repeat(1000), "y".repeat(1000)], true);
    await expect(spoolUpload(upload, dir)).rejects.toMatchObject({ status: 413, code: "payloadTooLarge" });
    expect(upload.closed).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});
