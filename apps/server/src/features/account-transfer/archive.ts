import type { PassThrough } from "node:stream";
import { crc32, inflateRawSync } from "node:zlib";
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
  read(name: string): Buffer | null;
}

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

export function readArchive(file: Buffer): ArchiveReader {
  if (!isZip(file) || file.length < 22) throw badArchive("it is not a zip file");
  let eocd = -1;
  for (let at = file.length - 22; at >= Math.max(0, file.length - 22 - 0xffff); at--) {
    if (file.readUInt32LE(at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw badArchive("its table of contents is missing");
  const count = file.readUInt16LE(eocd + 10);
  const dirOffset = file.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw badArchive("ZIP64 archives are not supported");
  if (count > ACCOUNT_ARCHIVE_ENTRIES_MAX)
    throw badArchive(`it holds more than ${ACCOUNT_ARCHIVE_ENTRIES_MAX} files`);
  const entries = new Map<string, Entry>();
  let at = dirOffset;
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== 0x02014b50)
      throw badArchive("its table of contents is damaged");
    const flags = file.readUInt16LE(at + 8);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    if (at + 46 + nameLength > file.length) throw badArchive("its table of contents is damaged");
    const name = file.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const entry: Entry = {
      method: file.readUInt16LE(at + 10),
      crc: file.readUInt32LE(at + 16),
      compressedSize: file.readUInt32LE(at + 20),
      size: file.readUInt32LE(at + 24),
      localOffset: file.readUInt32LE(at + 42),
    };
    if (flags & 1) throw badArchive("it is encrypted");
    const limit = entryLimit(name);
    if (entry.size > limit) throw badArchive(`${name} is larger than ${limit / 2 ** 20} MB`);
    declared += entry.size;
    if (declared > ACCOUNT_IMPORT_MAX_BYTES * 2) throw badArchive("it unpacks to too much data");
    if (!entries.has(name) && isSafeName(name)) entries.set(name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return {
    names: () => [...entries.keys()],
    has: (name) => entries.has(name),
    read(name) {
      const entry = entries.get(name);
      return entry ? inflate(file, name, entry) : null;
    },
  };
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

function inflate(file: Buffer, name: string, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== 0x04034b50) throw badArchive(`${name} is damaged`);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > file.length) throw badArchive(`${name} is cut off`);
  const raw = file.subarray(start, end);
  let data: Buffer;
  if (entry.method === 0) data = Buffer.from(raw);
  else if (entry.method === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
    } catch {
      throw badArchive(`${name} is damaged`);
    }
  } else throw badArchive(`${name} uses an unsupported compression`);
  if (data.length !== entry.size || crc32(data) !== entry.crc) throw badArchive(`${name} is damaged`);
  return data;
}
