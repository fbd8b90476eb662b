import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

/**
 * A backup is a gzip-compressed tar (POSIX ustar with pax headers for long names), so an operator
 * can also open one with `tar xzf`. Written and read as streams: a large database dump never has
 * to fit in memory twice. Each entry's size and SHA-256 go to the manifest, written last.
 */

export interface ArchivedEntry {
  name: string;
  size: number;
  sha256: string;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name: string, size: number, type: "0" | "x", mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name.slice(0, 100), 0, "utf8");
  block.write(octal(0o644, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtime / 1000), 12), 136);
  block.write("        ", 148); // checksum placeholder: spaces while summing
  block.write(type, 156);
  block.write("ustar\0", 257);
  block.write("00", 263);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return block;
}

/** A pax extended header carrying the full path (names over 100 bytes). */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (Buffer.byteLength(`${length}${body}`) !== length) length++;
  return Buffer.from(`${length}${body}`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes entries one after another into a .tar.gz file. */
export class TarWriter {
  private gzip = createGzip({ level: 6 });
  private out: Writable;
  readonly entries: ArchivedEntry[] = [];
  private now = Date.now();

  /** Into a file (created 0600: a backup holds every account), or any stream (the control socket). */
  constructor(target: string | Writable) {
    this.out = typeof target === "string" ? createWriteStream(target, { mode: 0o600 }) : target;
    this.gzip.pipe(this.out);
    // A destination that fails or goes away (a command that stopped listening) ends the backup,
    // rather than leaving it waiting for room forever.
    this.out.on("error", (error) => {
      this.failure ??= error;
    });
    this.out.on("close", () => {
      if (!this.closing) this.failure ??= new Error("The backup's destination closed before the end.");
    });
  }

  private failure: Error | null = null;
  private closing = false;

  private async write(chunk: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.gzip.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const settle = () => {
        clearInterval(watch);
        this.gzip.off("drain", settle);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      this.gzip.once("drain", settle);
      // The failure handlers above run first; this notices them without another listener set.
      const watch = setInterval(() => {
        if (this.failure) settle();
      }, 200);
    });
  }

  private async head(name: string, size: number): Promise<void> {
    if (Buffer.byteLength(name) > 100) {
      const pax = paxRecord("path", name);
      await this.write(header("pax-header", pax.length, "x", this.now));
      await this.write(pax);
      await this.write(padding(pax.length));
    }
    await this.write(header(name, size, "0", this.now));
  }

  async addBuffer(name: string, body: Buffer | Uint8Array): Promise<void> {
    const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    await this.head(name, buffer.length);
    await this.write(buffer);
    await this.write(padding(buffer.length));
    this.entries.push({
      name,
      size: buffer.length,
      sha256: createHash("sha256").update(buffer).digest("hex"),
    });
  }

  /** Streams a file from disk; `size` is checked so a file growing meanwhile cannot break the tar. */
  async addFile(name: string, file: string, size: number): Promise<void> {
    await this.head(name, size);
    const hash = createHash("sha256");
    let written = 0;
    for await (const chunk of createReadStream(file, { end: size > 0 ? size - 1 : 0 })) {
      const part = (chunk as Buffer).subarray(0, size - written);
      if (part.length === 0) break;
      hash.update(part);
      await this.write(part);
      written += part.length;
    }
    if (written < size) throw new Error(`${file} shrank while it was being backed up`);
    await this.write(padding(size));
    this.entries.push({ name, size, sha256: hash.digest("hex") });
  }

  async close(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.closing = true;
    this.gzip.end();
    await finished(this.out);
  }

  /** Stops writing (on a failure); the caller removes the partial file. */
  async abort(): Promise<void> {
    this.closing = true;
    this.gzip.destroy();
    this.out.destroy();
    await finished(this.out).catch(() => {});
  }
}

/** A safe relative path inside the extraction folder, or null for anything else. */
function safeName(name: string): string | null {
  const clean = name.replace(/^\.\//, "");
  if (!clean || clean.startsWith("/") || clean.includes("\0")) return null;
  if (clean.split("/").some((part) => part === ".." || part === "")) return null;
  return clean;
}

/**
 * Extracts a .tar.gz written by TarWriter into `dest` (regular files only; links, devices and
 * paths leaving `dest` are refused), or only reads it through when `dest` is null. Answers each
 * entry with its size and SHA-256, and the manifest's text when `keep` names it.
 */
export async function extractTar(
  file: string,
  dest: string | null,
  keep: string | null = null,
  opts: { gzip?: boolean; absolute?: boolean } = {},
): Promise<{ entries: ArchivedEntry[]; kept: string | null }> {
  let kept: Buffer[] | null = null;
  const entries: ArchivedEntry[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let current: {
    name: string | null;
    left: number;
    pad: number;
    handle: Awaited<ReturnType<typeof open>> | null;
    hash: ReturnType<typeof createHash>;
    size: number;
    pax: Buffer[] | null;
  } | null = null;
  let paxPath: string | null = null;
  let ended = false;

  const input = opts.gzip === false ? createReadStream(file) : createReadStream(file).pipe(createGunzip());
  for await (const chunk of input) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (!ended) {
      if (current) {
        if (current.left > 0) {
          if (pending.length === 0) break;
          const part = pending.subarray(0, current.left);
          pending = pending.subarray(part.length);
          current.left -= part.length;
          if (current.pax) current.pax.push(Buffer.from(part));
          else {
            current.hash.update(part);
            if (current.name === keep) {
              kept ??= [];
              kept.push(Buffer.from(part));
            }
            await current.handle?.write(part);
          }
          continue;
        }
        if (pending.length < current.pad) break;
        pending = pending.subarray(current.pad);
        if (current.pax) {
          const text = Buffer.concat(current.pax).toString("utf8");
          paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text)?.[1] ?? null;
        } else {
          await current.handle?.close();
          if (current.name)
            entries.push({ name: current.name, size: current.size, sha256: current.hash.digest("hex") });
        }
        current = null;
        continue;
      }
      if (pending.length < BLOCK) break;
      const block = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (block.every((b) => b === 0)) {
        ended = true;
        break;
      }
      const size = Number.parseInt(
        block.subarray(124, 136).toString("ascii").replace(/\0.*$/s, "").trim() || "0",
        8,
      );
      const type = String.fromCharCode(block[156] ?? 0);
      const rawName = block.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
      const prefix = block.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "");
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (type === "x") {
        current = { name: null, left: size, pad, handle: null, hash: createHash("sha256"), size, pax: [] };
        continue;
      }
      let name = paxPath ?? (prefix ? `${prefix}/${rawName}` : rawName);
      paxPath = null;
      // PGlite's own dump names its entries from the root of its data directory (`/base/1/112`).
      if (opts.absolute) name = name.replace(/^\/+/, "");
      if (type === "5") {
        const folder = safeName(name.replace(/\/+$/, ""));
        if (dest && folder)
          await mkdir(path.join(dest, ...folder.split("/")), { recursive: true, mode: 0o700 });
        if (size > 0) throw new Error(`The backup holds an unexpected entry (${name}).`);
        continue;
      }
      if (type !== "0" && type !== "\0") throw new Error(`The backup holds an unexpected entry (${name}).`);
      const safe = safeName(name);
      if (!safe) throw new Error(`The backup holds an unsafe path (${JSON.stringify(name)}).`);
      let handle: Awaited<ReturnType<typeof open>> | null = null;
      if (dest) {
        const target = path.join(dest, ...safe.split("/"));
        await mkdir(path.dirname(target), { recursive: true });
        handle = await open(target, "wx", 0o600);
      }
      current = { name: safe, left: size, pad, handle, hash: createHash("sha256"), size, pax: null };
    }
    if (ended) break;
  }
  if (!ended || current) throw new Error("The backup file is incomplete (it ends in the middle).");
  return { entries, kept: kept ? Buffer.concat(kept).toString("utf8") : null };
}
