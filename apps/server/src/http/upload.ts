import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import { HttpError } from "./errors.ts";

/** Room for the multipart framing (boundaries, part headers) around the one file. */
const FRAMING_BYTES = 64 * 1024;

/** One uploaded file, read as it arrives: `chunks` yields its bytes and fails past the limit. */
export interface UploadStream {
  filename: string;
  chunks: AsyncGenerator<Buffer, void, undefined>;
  /** Stops reading (the rest of the body is discarded); a no-op once the file is read. */
  close(): void;
}

/**
 * Opens the one file of a multipart request (field `file`) as a stream of its chunks. The size
 * limit is kept while reading: the chunk that passes `maxBytes` fails with 413, and so does a
 * body whose Content-Length already says it is too large, before any of it is read. Whenever
 * reading stops before the file's end (the limit, or the caller stopping early), the rest of the
 * body is discarded as it arrives, never buffered, so the answer goes out at once and the
 * connection stays usable.
 */
export async function openUpload(req: FastifyRequest, maxBytes: number): Promise<UploadStream> {
  const hint = "Send the file as multipart/form-data in a field named file.";
  if (!req.isMultipart()) throw new HttpError(415, "unsupportedMediaType", hint);
  const declared = Number(req.headers["content-length"]);
  if (declared > maxBytes + FRAMING_BYTES) {
    discardRest(req);
    throw tooLarge(maxBytes);
  }
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
  } catch (error) {
    discardRest(req);
    throw uploadError(error, maxBytes);
  }
  if (part?.fieldname !== "file") {
    discardRest(req);
    throw new HttpError(400, "invalidRequest", `No file was sent. ${hint}`);
  }
  const file = part.file;
  // busboy stops passing bytes on at the limit and says so with "limit": that is the moment to answer.
  file.once("limit", () => file.destroy(tooLarge(maxBytes)));
  const close = () => {
    if (file.readableEnded) return;
    file.destroy();
    discardRest(req);
  };
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    try {
      for await (const chunk of file) yield chunk as Buffer;
      if (file.truncated) throw tooLarge(maxBytes);
    } catch (error) {
      throw error instanceof HttpError ? error : uploadError(error, maxBytes);
    } finally {
      close();
    }
  }
  return { filename: part.filename, chunks: chunks(), close };
}

/** Reads the one file of a multipart request (field `file`) whole, refusing it past `maxBytes`. */
export async function readUpload(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ data: Buffer; filename: string }> {
  const upload = await openUpload(req, maxBytes);
  const parts: Buffer[] = [];
  for await (const chunk of upload.chunks) parts.push(chunk);
  return { data: Buffer.concat(parts), filename: upload.filename };
}

/** An upload saved to a temporary file; `remove` deletes it (and its folder). */
export interface SpooledUpload {
  path: string;
  size: number;
  remove(): Promise<void>;
}

/**
 * Writes an upload to a private temporary folder as it arrives, for a file read by seeking (a
 * zip's table of contents is at its end), so it is never held in memory whole. The limit is the
 * stream's: past it the partial file is deleted and the 413 passed on.
 */
export async function spoolUpload(upload: UploadStream, dir = tmpdir()): Promise<SpooledUpload> {
  const folder = await mkdtemp(path.join(dir, "hearth-upload-"));
  const file = path.join(folder, "upload");
  const remove = () => rm(folder, { recursive: true, force: true });
  try {
    let size = 0;
    const counted = async function* () {
      for await (const chunk of upload.chunks) {
        size += chunk.length;
        yield chunk;
      }
    };
    await pipeline(Readable.from(counted()), createWriteStream(file, { mode: 0o600 }));
    return { path: file, size, remove };
  } catch (error) {
    upload.close();
    await remove();
    throw error;
  }
}

/**
 * Lets the rest of a refused body flow into nothing: the multipart parser is detached (it would
 * otherwise search every further byte for a boundary) and the request resumed without a reader.
 */
function discardRest(req: FastifyRequest): void {
  const raw = req.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  raw.resume();
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, "payloadTooLarge", `The file is larger than ${maxBytes / 1024 / 1024} MB.`);

function uploadError(error: unknown, maxBytes: number): HttpError {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(maxBytes);
  // Malformed multipart bodies (cut off, bad boundary) are the client's mistake.
  return new HttpError(400, "invalidRequest", "The upload could not be read. Please try again.");
}
