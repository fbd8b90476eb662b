import type { FileHandle } from "node:fs/promises";
import type { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { crc32, inflateRaw } from "node:zlib";
import {
  ACCOUNT_ARCHIVE_ENTRIES_MAX,
  ACCOUNT_IMPORT_MAX_BYTES,
  CHAT_IMPORT_MAX_BYTES,
} from "@hearth/contract";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { HttpError } from "../../http/errors.ts";

/**
 * The account archive's zip, written with fflate and read by a small defensive reader: the
 * central directory only, no ZIP64, each entry inflated on request with its output capped at
 * its declared size (and the whole at ACCOUNT_IMPORT_MAX_BYTES), so a lying header cannot
 * inflate further. Every fault is a 400 with a readable message, never a 500.
 */

export const badArchive = (what: string) =>
  new HttpError(400, "invalidRequest", `This is not a usable Hearth account archive: ${what}.`);

/**
 * Writes the archive as it goes into `out`: each file is added when it is ready, waiting while
 * the reader is behind, so a large account never sits whole in memory. Files already compressed
 * (cards, pictures) are stored; JSON is deflated.
 */
export class ArchiveWriter {
  private zip: Zip;
  constructor(private out: PassThrough) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        out.destroy(error);
        return;
      }
      out.write(chunk);
      if (final) out.end();
    });
  }

  async add(name: string, data: Uint8Array): Promise<void> {
    const entry = name.endsWith(".json") ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    this.zip.add(entry);
    entry.push(data, true);
    if (this.out.writableLength > this.out.writableHighWaterMark && !this.out.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.out.off("drain", done);
          this.out.off("close", done);
          resolve();
        };
        this.out.on("drain", done);
        this.out.on("close", done);
      });
    }
  }

  end(): void {
    this.zip.end();
  }
}

export interface ArchiveReader {
  names(): string[];
  has(name: string): boolean;
  /** The entry's bytes, or null when there is none. */
  read(name: string): Promise<Buffer | null>;
}

/** The most a table of contents of ACCOUNT_ARCHIVE_ENTRIES_MAX files with long names takes. */
const DIRECTORY_MAX_BYTES = 32 * 2 ** 20;

/** Where the archive's bytes are: an uploaded file on disk, or a buffer. */
export interface ArchiveSource {
  size: number;
  /** `length` bytes from `at` (fewer only past the end). */
  read(at: number, length: number): Promise<Buffer>;
}

export const bufferSource = (file: Buffer): ArchiveSource => ({
  size: file.length,
  read: async (at, length) => file.subarray(at, Math.min(at + length, file.length)),
});

/** Reads from an open file; the caller closes it. */
export const fileSource = (handle: FileHandle, size: number): ArchiveSource => ({
  size,
  async read(at, length) {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
    let done = 0;
    while (done < buffer.length) {
      const { bytesRead } = await handle.read(buffer, done, buffer.length - done, at + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buffer.subarray(0, done);
  },
});

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
}

export function isZip(file: Buffer): boolean {
  return file.length >= 4 && file[0] === 0x50 && file[1] === 0x4b && (file[2] === 3 || file[2] === 5);
}

/**
 * Opens an archive by its table of contents (read from the end: the last 64 KB for the end
 * record, then the directory it points to); entries are read from the source on request.
 */
export async function readArchive(source: ArchiveSource): Promise<ArchiveReader> {
  if (source.size < 22 || !isZip(await source.read(0, 4))) throw badArchive("it is not a zip file");
  const tailStart = Math.max(0, source.size - 22 - 0xffff);
  const tail = await source.read(tailStart, source.size - tailStart);
  let eocd = -1;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw badArchive("its table of contents is missing");
  const count = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw badArchive("ZIP64 archives are not supported");
  if (count > ACCOUNT_ARCHIVE_ENTRIES_MAX)
    throw badArchive(`it holds more than ${ACCOUNT_ARCHIVE_ENTRIES_MAX} files`);
  if (dirOffset + dirSize > source.size) throw badArchive("its table of contents is damaged");
  if (dirSize > DIRECTORY_MAX_BYTES) throw badArchive("its table of contents is too large");
  const entries = readDirectory(await source.read(dirOffset, dirSize), count);
  return {
    names: () => [...entries.keys()],
    has: (name) => entries.has(name),
    async read(name) {
      const entry = entries.get(name);
      return entry ? inflate(source, name, entry) : null;
    },
  };
}

function readDirectory(dir: Buffer, count: number): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let at = 0;
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== 0x02014b50)
      throw badArchive("its table of contents is damaged");
    const flags = dir.readUInt16LE(at + 8);
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    if (at + 46 + nameLength > dir.length) throw badArchive("its table of contents is damaged");
    const name = dir.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const entry: Entry = {
      method: dir.readUInt16LE(at + 10),
      crc: dir.readUInt32LE(at + 16),
      compressedSize: dir.readUInt32LE(at + 20),
      size: dir.readUInt32LE(at + 24),
      localOffset: dir.readUInt32LE(at + 42),
    };
    if (flags & 1) throw badArchive("it is encrypted");
    const limit = entryLimit(name);
    if (entry.size > limit) throw badArchive(`${name} is larger than ${limit / 2 ** 20} MB`);
    declared += entry.size;
    if (declared > ACCOUNT_IMPORT_MAX_BYTES * 2) throw badArchive("it unpacks to too much data");
    if (!entries.has(name) && isSafeName(name)) entries.set(name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const MB = 2 ** 20;

/**
 * The most one file of the archive may unpack to, by its folder: checked on the table of
 * contents, so an archive with an oversized file is refused before anything is imported.
 */
export function entryLimit(name: string): number {
  if (name.startsWith("conversations/")) return CHAT_IMPORT_MAX_BYTES;
  // Above a CharX's own limit: a card too large for the card reader is skipped by it, not the archive.
  if (name.startsWith("characters/")) return 64 * MB;
  if (name.startsWith("lorebooks/")) return 8 * MB;
  return 4 * MB; // manifest, settings, personas and their avatars
}

function isSafeName(name: string): boolean {
  if (name === "" || name.startsWith("/") || name.includes("\\") || /^[A-Za-z]:/.test(name)) return false;
  if (/\p{Cc}/u.test(name)) return false;
  return !name.split("/").some((part) => part === ".." || part === ".");
}

/** Inflating runs on libuv's thread pool, so a large entry never holds the event loop. */
const inflateRawAsync = promisify(inflateRaw);

async function inflate(source: ArchiveSource, name: string, entry: Entry): Promise<Buffer> {
  const header = await source.read(entry.localOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw badArchive(`${name} is damaged`);
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressedSize > source.size) throw badArchive(`${name} is cut off`);
  const raw = await source.read(start, entry.compressedSize);
  let data: Buffer;
  if (entry.method === 0) data = Buffer.from(raw);
  else if (entry.method === 8) {
    try {
      data = await inflateRawAsync(raw, { maxOutputLength: Math.max(1, entry.size) });
    } catch {
      throw badArchive(`${name} is damaged`);
    }
  } else throw badArchive(`${name} uses an unsupported compression`);
  if (data.length !== entry.size || crc32(data) !== entry.crc) throw badArchive(`${name} is damaged`);
  return data;
}
