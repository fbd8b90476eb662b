/**
 * The fsyncs and the zero-block test behind durable-pglite.ts (decision 019), apart so that the
 * module stays about what it decides: when each flush happens.
 */
import fs from "node:fs";
import path from "node:path";
import type { DurabilityProbe } from "./durable-pglite.ts";

export function fsyncFd(fd: number, file: string, probe: DurabilityProbe | undefined): void {
  const done = probe?.beforeSync(file);
  fs.fsyncSync(fd);
  done?.();
}

/** fsync by name: a WAL segment's descriptor may be closed by PostgreSQL before a gathered flush. */
export function fsyncPath(file: string, probe: DurabilityProbe | undefined): void {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    // Removed or recycled since: a checkpoint made everything it held durable before that.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    fsyncFd(fd, file, probe);
  } finally {
    fs.closeSync(fd);
  }
}

export async function fsyncPathAsync(file: string): Promise<void> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncs every file and directory under `dir`, children before their directory. */
export function syncTree(dir: string, probe?: DurabilityProbe): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(child, probe);
    else if (entry.isFile()) fsyncPath(child, probe);
  }
  fsyncPath(dir, probe);
}

/** fsyncs the directories holding `dir`, so that its own entry (a new data directory) is durable. */
export function syncParents(dir: string, probe?: DurabilityProbe): void {
  const parent = path.dirname(dir);
  if (parent !== dir) fsyncPath(parent, probe);
}

/** A relation grows by blocks of zeros; those may reach the disk before any WAL. */
export function allZero(buffer: Uint8Array | Int8Array, offset: number, length: number): boolean {
  const end = offset + length;
  let i = offset;
  // Four bytes at a time where the alignment allows it (blocks are 8 kB, aligned).
  const start = buffer.byteOffset + offset;
  if (start % 4 === 0 && length >= 64) {
    const words = new Uint32Array(buffer.buffer, start, length >>> 2);
    for (let w = 0; w < words.length; w++) if (words[w] !== 0) return false;
    i = offset + words.length * 4;
  }
  for (; i < end; i++) if (buffer[i] !== 0) return false;
  return true;
}
