import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DownloadError, type DownloadOptions, downloadModel } from "./download.ts";
import { closedPort, type GgufTestServer, startGgufServer } from "./test-gguf-server.ts";

let server: GgufTestServer;
const dir = mkdtempSync(path.join(tmpdir(), "hearth-download-"));
let counter = 0;
/** A fresh destination per test, so tests never see each other's .part files. */
const newDest = () => path.join(dir, `model-${++counter}.gguf`);

beforeAll(async () => {
  server = await startGgufServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a download that must fail and returns its DownloadError. */
async function failure(opts: DownloadOptions): Promise<DownloadError> {
  const error = await downloadModel(opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadError);
  return error as DownloadError;
}

describe("downloadModel", () => {
  it("downloads, verifies the expected sha256 and moves the file into place", async () => {
    const dest = newDest();
    const progress: number[] = [];
    const result = await downloadModel({
      url: server.url("/model.gguf"),
      dest,
      expectedSha256: server.sha256,
      onProgress: (p) => progress.push(p.receivedBytes),
    });
    expect(result).toMatchObject({ path: dest, bytes: server.file.length, sha256: server.sha256 });
    expect(result.checksumSource).toBe("expected");
    expect(readFileSync(dest).equals(server.file)).toBe(true);
    expect(existsSync(`${dest}.part`)).toBe(false);
    expect(progress.at(-1)).toBe(server.file.length);
  });

  it("follows redirects and checks the sha256 a Hugging Face-style redirect publishes", async () => {
    const dest = newDest();
    const result = await downloadModel({ url: server.url("/hf/model.gguf"), dest });
    expect(result.checksumSource).toBe("server");
    expect(result.sha256).toBe(server.sha256);
    expect(readFileSync(dest).equals(server.file)).toBe(true);
  });

  it("keeps what arrived when the connection drops and resumes it with a Range request", async () => {
    const dest = newDest();
    const first = await failure({ url: server.url("/cut.gguf"), dest });
    expect(first.kind).toBe("interrupted");
    expect(first.message).toContain("run the command again to resume");
    const kept = statSync(`${dest}.part`).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(server.cutAt);

    const notes: string[] = [];
    const result = await downloadModel({ url: server.url("/cut.gguf"), dest, onNote: (n) => notes.push(n) });
    expect(server.rangesFor("/cut.gguf")).toEqual([undefined, `bytes=${kept}-`]);
    expect(result.resumedFromBytes).toBe(kept);
    expect(notes[0]).toContain("Resuming");
    expect(readFileSync(dest).equals(server.file)).toBe(true);
  });

  it("times out a stalled connection and resumes from exactly the bytes received", async () => {
    const dest = newDest();
    const stalled = await failure({ url: server.url("/stall.gguf"), dest, idleTimeoutMs: 1000 });
    expect(stalled.kind).toBe("interrupted");
    expect(stalled.message).toContain("The download stalled");
    expect(statSync(`${dest}.part`).size).toBe(server.cutAt);

    await downloadModel({ url: server.url("/stall.gguf"), dest, expectedSha256: server.sha256 });
    expect(server.rangesFor("/stall.gguf")).toEqual([undefined, `bytes=${server.cutAt}-`]);
    expect(readFileSync(dest).equals(server.file)).toBe(true);
  });

  it("starts over cleanly when the server ignores Range and sends the whole file", async () => {
    const dest = newDest();
    writeFileSync(`${dest}.part`, Buffer.alloc(1000, 7));
    const notes: string[] = [];
    const result = await downloadModel({
      url: server.url("/no-range.gguf"),
      dest,
      expectedSha256: server.sha256,
      onNote: (n) => notes.push(n),
    });
    expect(server.rangesFor("/no-range.gguf")).toEqual(["bytes=1000-"]);
    expect(notes.join("\n")).toContain("starting over");
    expect(result.resumedFromBytes).toBe(0);
    expect(readFileSync(dest).equals(server.file)).toBe(true);
  });

  it("finishes a .part that is already complete (HTTP 416)", async () => {
    const dest = newDest();
    writeFileSync(`${dest}.part`, server.file);
    const result = await downloadModel({
      url: server.url("/model.gguf"),
      dest,
      expectedSha256: server.sha256,
    });
    expect(server.requests.at(-1)?.range).toBe(`bytes=${server.file.length}-`);
    expect(result.resumedFromBytes).toBe(server.file.length);
    expect(readFileSync(dest).equals(server.file)).toBe(true);
  });

  it("rejects a checksum mismatch and deletes the download", async () => {
    const dest = newDest();
    const error = await failure({ url: server.url("/model.gguf"), dest, expectedSha256: "ab".repeat(32) });
    expect(error.kind).toBe("checksum");
    expect(error.message).toContain("Checksum mismatch");
    expect(error.message).toContain("deleted");
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(false);

    const fromHeader = await failure({ url: server.url("/bad-etag.gguf"), dest });
    expect(fromHeader.kind).toBe("checksum");
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it("rejects a size that differs from the expected one", async () => {
    const dest = newDest();
    const error = await failure({ url: server.url("/model.gguf"), dest, expectedSize: 12345 });
    expect(error.kind).toBe("size");
    expect(existsSync(dest)).toBe(false);
  });

  it("refuses a file that is not a GGUF model", async () => {
    const dest = newDest();
    const error = await failure({ url: server.url("/page.html"), dest });
    expect(error.kind).toBe("not_gguf");
    expect(error.message).toContain("is not a GGUF model file");
    expect(error.message).toContain("a web page");
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it("explains HTTP errors", async () => {
    const missing = await failure({ url: server.url("/nothing-here.gguf"), dest: newDest() });
    expect(missing.message).toBe(
      `Not found (HTTP 404): ${server.url("/nothing-here.gguf")}. Check the model name or URL.`,
    );
    const denied = await failure({ url: server.url("/private.gguf"), dest: newDest() });
    expect(denied.message).toContain("refused the download (HTTP 403)");
    const loop = await failure({ url: server.url("/redirect-loop.gguf"), dest: newDest() });
    expect(loop.message).toContain("Too many redirects");
  });

  it("says the host is unreachable when nothing listens on the port", async () => {
    const port = await closedPort();
    const error = await failure({ url: `http://127.0.0.1:${port}/model.gguf`, dest: newDest() });
    expect(error.kind).toBe("offline");
    expect(error.message).toContain(`Could not reach 127.0.0.1:${port} (ECONNREFUSED). Are you offline?`);
  });

  it("says the host is unreachable when its name does not resolve", async () => {
    const error = await failure({ url: "http://hearth-model-host.invalid/model.gguf", dest: newDest() });
    expect(error.kind).toBe("offline");
    expect(error.message).toMatch(
      /^Could not reach hearth-model-host\.invalid \(E[A-Z_]+\)\. Are you offline\?/,
    );
  });

  it("stops on abort and keeps the partial file for a resume", async () => {
    const dest = newDest();
    const controller = new AbortController();
    const error = await failure({
      url: server.url("/stall.gguf?abort"),
      dest,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.receivedBytes > 0) controller.abort();
      },
    });
    expect(error.kind).toBe("aborted");
    expect(existsSync(`${dest}.part`)).toBe(true);
  });

  it("refuses URLs that are not http(s)", async () => {
    const error = await failure({ url: "ftp://127.0.0.1/model.gguf", dest: newDest() });
    expect(error.message).toContain("Only http(s) URLs");
  });
});
