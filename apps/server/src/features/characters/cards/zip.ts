import { crc32, inflateRawSync } from "node:zlib";
import { MAX_ZIP_ENTRIES, MAX_ZIP_TOTAL_BYTES } from "./limits.ts";
import { CardError } from "./types.ts";

/**
 * A defensive zip reader for CharX files. It reads the central directory only, refuses archives
 * that declare more than MAX_ZIP_TOTAL_BYTES or MAX_ZIP_ENTRIES, and inflates an entry only on
 * request with the output capped at its declared size, so a lying header cannot inflate further.
 * (fflate's unzipSync grows its output buffer past the declared size, hence this reader.)
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
  encrypted: boolean;
}

export interface ZipArchive {
  /** Entries with safe relative names, first occurrence of each name. */
  entries: Map<string, ZipEntry>;
  /** Names refused as unsafe (absolute, `..`, backslashes, drive letters, control characters). */
  unsafeNames: string[];
  read(entry: ZipEntry, maxBytes: number): Buffer;
}

export function isZip(file: Buffer): boolean {
  return file.length >= 4 && file[0] === 0x50 && file[1] === 0x4b && (file[2] === 3 || file[2] === 5);
}

const damaged = (what: string) => new CardError(`The CharX archive is damaged: ${what}.`);

/** Names that could escape a folder if someone ever extracted the archive. */
function isSafeName(name: string): boolean {
  if (name === "" || name.startsWith("/") || name.includes("\\") || /^[A-Za-z]:/.test(name)) return false;
  if (/\p{Cc}/u.test(name)) return false;
  return !name.split("/").some((part) => part === ".." || part === ".");
}

function findEndOfCentralDirectory(file: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const lowest = Math.max(0, file.length - 22 - 0xffff);
  for (let at = file.length - 22; at >= lowest; at--) {
    if (file.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  throw damaged("its table of contents is missing");
}

export function readZip(file: Buffer): ZipArchive {
  if (file.length < 22) throw damaged("it is too short");
  const eocd = findEndOfCentralDirectory(file);
  const count = file.readUInt16LE(eocd + 10);
  const directorySize = file.readUInt32LE(eocd + 12);
  const directoryOffset = file.readUInt32LE(eocd + 16);
  if (file.readUInt16LE(eocd + 4) !== 0 || file.readUInt16LE(eocd + 6) !== 0) {
    throw new CardError("Split (multi-part) zip archives are not supported.");
  }
  if (count === 0xffff || directoryOffset === ZIP64_MARK) {
    throw new CardError("ZIP64 archives are not supported.");
  }
  if (count > MAX_ZIP_ENTRIES) {
    throw new CardError(`The CharX archive has more than ${MAX_ZIP_ENTRIES} files.`, 413);
  }
  if (directoryOffset + directorySize > eocd) throw damaged("its table of contents points outside the file");

  const entries = new Map<string, ZipEntry>();
  const unsafeNames: string[] = [];
  let declaredTotal = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || file.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
      throw damaged("a directory record is invalid");
    }
    const nameLength = file.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
    if (next > eocd) throw damaged("a directory record runs past its end");
    const entry: ZipEntry = {
      name: file.toString("utf8", at + 46, at + 46 + nameLength),
      method: file.readUInt16LE(at + 10),
      crc: file.readUInt32LE(at + 16),
      compressedSize: file.readUInt32LE(at + 20),
      size: file.readUInt32LE(at + 24),
      localOffset: file.readUInt32LE(at + 42),
      encrypted: (file.readUInt16LE(at + 8) & 1) === 1,
    };
    at = next;
    if ([entry.compressedSize, entry.size, entry.localOffset].includes(ZIP64_MARK)) {
      throw new CardError("ZIP64 archives are not supported.");
    }
    declaredTotal += entry.size;
    if (declaredTotal > MAX_ZIP_TOTAL_BYTES) {
      throw new CardError(`The CharX archive unpacks to more than ${MAX_ZIP_TOTAL_BYTES / 2 ** 20} MB.`, 413);
    }
    if (!isSafeName(entry.name)) unsafeNames.push(entry.name);
    else if (!entries.has(entry.name)) entries.set(entry.name, entry);
  }

  return { entries, unsafeNames, read: (entry, maxBytes) => readEntry(file, entry, maxBytes) };
}

function readEntry(file: Buffer, entry: ZipEntry, maxBytes: number): Buffer {
  if (entry.encrypted) throw new CardError(`The CharX file ${entry.name} is encrypted.`);
  if (entry.size > maxBytes) throw new CardError(`The CharX file ${entry.name} is too large.`, 413);
  const local = entry.localOffset;
  if (local + 30 > file.length || file.readUInt32LE(local) !== LOCAL_SIGNATURE) {
    throw damaged(`the header of ${entry.name} is invalid`);
  }
  const dataStart = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > file.length) throw damaged(`${entry.name} runs past the end of the file`);
  const raw = file.subarray(dataStart, dataEnd);

  let data: Buffer;
  if (entry.method === 0) {
    data = raw;
  } else if (entry.method === 8) {
    try {
      // Never more than the declared size: a bomb that lies about its size stops here.
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
    } catch (error) {
      if (error instanceof RangeError) {
        throw new CardError(`The CharX file ${entry.name} unpacks to more than it declares.`, 413);
      }
      throw damaged(`${entry.name} cannot be decompressed`);
    }
  } else {
    throw new CardError(
      `The CharX file ${entry.name} uses an unsupported compression method (${entry.method}).`,
    );
  }
  if (data.length !== entry.size) throw damaged(`${entry.name} does not have its declared size`);
  if (crc32(data) !== entry.crc) throw damaged(`${entry.name} fails its checksum (CRC)`);
  return data;
}
