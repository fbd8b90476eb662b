import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { DownloadError } from "./errors.ts";
import { formatBytes } from "./format.ts";
import {
  httpError,
  openFollowingRedirects,
  parseContentRange,
  parseHttpUrl,
  type RequestContext,
  transferError,
} from "./http-source.ts";

export { DownloadError, type DownloadErrorKind } from "./errors.ts";

/**
 * Resumable, verified download of one GGUF file: streams into `<dest>.part`, resumes it with an
 * HTTP Range request, checks size, GGUF magic and sha256, then renames it into place, so `dest`
 * only ever holds a complete, checked file.
 */

export interface DownloadProgress {
  /** Bytes in the .part file so far, including those from an earlier, resumed attempt. */
  receivedBytes: number;
  /** Size of the whole file, when the server says. */
  totalBytes: number | null;
  /** Bytes that were already there when this attempt started (0 for a fresh download). */
  resumedFromBytes: number;
}

export interface DownloadOptions {
  url: string;
  dest: string;
  /** Checksum to require (e.g. from the catalog); otherwise one the server publishes is used. */
  expectedSha256?: string;
  /** Exact size to require, in bytes. */
  expectedSize?: number;
  onProgress?: (progress: DownloadProgress) => void;
  /** One-line notes worth showing: resuming, starting over, verifying. */
  onNote?: (message: string) => void;
  signal?: AbortSignal;
  /** Give up when nothing arrives for this long, connecting or downloading. Default 30 s. */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  /** What the sha256 was checked against: the caller's value, the server's header, or nothing. */
  checksumSource: "expected" | "server" | "none";
  resumedFromBytes: number;
}

export async function downloadModel(opts: DownloadOptions): Promise<DownloadResult> {
  const ctx: RequestContext = {
    url: parseHttpUrl(opts.url),
    signal: opts.signal,
    idleTimeoutMs: opts.idleTimeoutMs ?? 30_000,
    timedOut: false,
  };
  const note = opts.onNote ?? (() => {});
  const part = `${opts.dest}.part`;
  await mkdir(path.dirname(opts.dest), { recursive: true });

  const got = await negotiate(part, ctx, note);
  if (opts.expectedSize !== undefined && got.total !== null && got.total !== opts.expectedSize) {
    got.res?.destroy();
    await rm(part, { force: true });
    throw new DownloadError(
      `The server offers ${got.total} bytes, but ${opts.expectedSize} were expected. Nothing was saved.`,
      "size",
    );
  }
  if (got.res) await receive(got.res, part, got.start, got.total, ctx, opts.onProgress);

  const bytes = await sizeOf(part);
  if (got.total !== null && bytes < got.total) {
    throw new DownloadError(
      `The download stopped at ${formatBytes(bytes)} of ${formatBytes(got.total)}. Run the command again to resume.`,
      "interrupted",
    );
  }
  const wantedSize = opts.expectedSize ?? got.total;
  if (wantedSize !== null && bytes !== wantedSize) {
    await rm(part, { force: true });
    throw new DownloadError(
      `Size mismatch: expected ${wantedSize} bytes, received ${bytes}. The partial download was deleted; run the command again.`,
      "size",
    );
  }
  await assertGguf(part, ctx.url);

  const expected = opts.expectedSha256?.toLowerCase() ?? got.serverSha256;
  const checksumSource = opts.expectedSha256 ? "expected" : got.serverSha256 ? "server" : "none";
  note(
    expected
      ? `Verifying sha256 (${formatBytes(bytes)})…`
      : "No sha256 is published for this file; checked its size and GGUF header only.",
  );
  const sha256 = await sha256OfFile(part);
  if (expected && sha256 !== expected) {
    await rm(part, { force: true });
    throw new DownloadError(
      `Checksum mismatch for ${path.basename(opts.dest)}: expected sha256 ${expected}, got ${sha256}. ` +
        "The damaged download was deleted; run the command again.",
      "checksum",
    );
  }
  await rename(part, opts.dest);
  return { path: opts.dest, bytes, sha256, checksumSource, resumedFromBytes: got.start };
}

interface Negotiated {
  /** The body to append, or null when the .part already holds the whole file. */
  res: IncomingMessage | null;
  /** Offset the body starts at (the size of the kept .part). */
  start: number;
  total: number | null;
  serverSha256: string | null;
}

/** Asks for the bytes the .part is missing and settles how the server's answer fits onto it. */
async function negotiate(part: string, ctx: RequestContext, note: (m: string) => void): Promise<Negotiated> {
  let offset = await sizeOf(part);
  if (offset > 0) note(`Resuming: ${formatBytes(offset)} already downloaded.`);
  for (;;) {
    const { res, serverSha256 } = await openFollowingRedirects(offset, ctx);
    const status = res.statusCode ?? 0;
    if (status === 200) {
      if (offset > 0) note("The server cannot resume downloads; starting over.");
      const length = Number(res.headers["content-length"]);
      return { res, start: 0, total: Number.isFinite(length) ? length : null, serverSha256 };
    }
    if (status === 206) {
      const range = parseContentRange(res.headers["content-range"]);
      if (range && range.start === offset) return { res, start: offset, total: range.total, serverSha256 };
      res.destroy();
      if (offset === 0) throw new DownloadError(`${ctx.url.host} sent an unusable partial answer.`, "http");
    } else if (status === 416 && offset > 0) {
      // "Range not satisfiable": the .part may already be the whole file (a run stopped while verifying).
      res.resume();
      const total = /^bytes \*\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1];
      if (Number(total) === offset) return { res: null, start: offset, total: offset, serverSha256 };
    } else {
      res.resume();
      throw httpError(status, ctx.url);
    }
    note("The partial download does not match the file on the server; starting over.");
    await rm(part, { force: true });
    offset = 0;
  }
}

async function receive(
  res: IncomingMessage,
  part: string,
  start: number,
  total: number | null,
  ctx: RequestContext,
  onProgress: DownloadOptions["onProgress"],
): Promise<void> {
  // Each chunk is written before the next is read, so the .part holds exactly what arrived.
  const file = await open(part, start > 0 ? "a" : "w");
  let received = start;
  const report = () => onProgress?.({ receivedBytes: received, totalBytes: total, resumedFromBytes: start });
  report();
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      await file.write(chunk);
      received += chunk.length;
      report();
    }
  } catch (error) {
    throw transferError(error, received, ctx);
  } finally {
    await file.close();
  }
}

async function assertGguf(file: string, url: URL): Promise<void> {
  const handle = await open(file, "r");
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0).finally(() => handle.close());
  const magic = buffer.subarray(0, bytesRead).toString("latin1");
  if (magic === "GGUF") return;
  await rm(file, { force: true });
  const looksLikeHtml = magic.trimStart().startsWith("<");
  throw new DownloadError(
    `${url.href} is not a GGUF model file (it starts with ${JSON.stringify(magic)}` +
      `${looksLikeHtml ? ", a web page" : ""}). Nothing was saved.`,
    "not_gguf",
  );
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}
