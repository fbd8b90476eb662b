/**
 * A simulated power cut for the crash-consistency test (decision 019): a model of what a disk
 * holds after power is lost, built from the fsyncs the durable PGlite makes.
 *
 * The model: a file's content is what it held when its last fsync began (once that fsync has
 * finished); a directory's entries are those it held when its last fsync began. Files whose
 * entry is durable but that were never fsynced come back empty. On top of that, the kernel may
 * have written back any block written since, in any order: each 8 kB block of a file that
 * changed since its last fsync is taken from the live file at random, and so is its length.
 * That is every state a real disk may be in, save torn blocks inside a WAL page (which WAL's
 * checksums catch) and entries the kernel made durable on its own.
 */
import fs from "node:fs";
import path from "node:path";
import type { DurabilityProbe } from "../src/db/durable-pglite.ts";

const BLOCK = 8192;

interface Entry {
  key: string;
  dir: boolean;
}

/** A file's identity across renames: its inode and its birth (inode numbers are reused). */
function keyOf(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.birthtimeMs}`;
}

/** A small seeded generator, so a failing run can be replayed from its seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class PowerCutDisk implements DurabilityProbe {
  /** Durable content of each file, by identity. */
  private readonly contents = new Map<string, Buffer>();
  /** Durable entries of each directory, by path relative to the root. */
  private readonly dirs = new Map<string, Map<string, Entry>>();
  /** fsyncs seen (files and directories), for the test's own sanity. */
  syncs = 0;
  /** The order fsyncs began in, and the latest begun whose content each file or directory holds. */
  private taken = 0;
  private readonly published = new Map<string, number>();

  constructor(readonly root: string) {
    this.baseline("");
  }

  /** What is there when the run starts counts as on disk (the previous round left it so). */
  private baseline(rel: string): void {
    const abs = path.join(this.root, rel);
    const entries = this.readEntries(abs);
    this.dirs.set(rel, entries);
    for (const [name, entry] of entries) {
      if (entry.dir) this.baseline(path.join(rel, name));
      else this.contents.set(entry.key, fs.readFileSync(path.join(abs, name)));
    }
  }

  private readEntries(abs: string): Map<string, Entry> {
    const entries = new Map<string, Entry>();
    for (const name of fs.readdirSync(abs)) {
      try {
        const stat = fs.lstatSync(path.join(abs, name));
        if (stat.isDirectory() || stat.isFile())
          entries.set(name, { key: keyOf(stat), dir: stat.isDirectory() });
      } catch {
        // Removed between readdir and lstat: not an entry any more.
      }
    }
    return entries;
  }

  beforeSync(file: string): () => void {
    const rel = path.relative(this.root, file);
    // The directory holding the data directory is fsynced too; it is outside the model.
    if (rel.startsWith("..")) return () => {};
    const stat = fs.lstatSync(file);
    if (stat.isDirectory()) {
      const entries = this.readEntries(file);
      const taken = ++this.taken;
      return () => {
        if ((this.published.get(rel) ?? 0) > taken) return;
        this.published.set(rel, taken);
        this.dirs.set(rel, entries);
        this.syncs++;
      };
    }
    const content = fs.readFileSync(file);
    const key = keyOf(stat);
    const taken = ++this.taken;
    return () => {
      // Two fsyncs of one file may overlap (a background flush, then a synchronous one): the
      // disk holds at least what the later-begun one saw, whichever finishes last.
      if ((this.published.get(key) ?? 0) > taken) return;
      this.published.set(key, taken);
      this.contents.set(key, content);
      this.syncs++;
    };
  }

  /**
   * Writes the disk as power loss could leave it into `out`: durable state, with blocks written
   * since taken from the live files at `mixRate`.
   */
  materialize(out: string, rand: () => number, mixRate: number): void {
    this.materializeDir("", out, rand, mixRate);
  }

  private materializeDir(rel: string, out: string, rand: () => number, mixRate: number): void {
    const target = path.join(out, rel);
    fs.mkdirSync(target, { recursive: true });
    const entries = this.dirs.get(rel);
    if (!entries) return; // A directory whose own entries were never made durable: empty.
    for (const [name, entry] of entries) {
      const childRel = path.join(rel, name);
      if (entry.dir) {
        this.materializeDir(childRel, out, rand, mixRate);
        continue;
      }
      const durable = this.contents.get(entry.key) ?? Buffer.alloc(0);
      fs.writeFileSync(path.join(out, childRel), this.mix(childRel, entry.key, durable, rand, mixRate));
    }
  }

  /** Blocks the kernel may have written back on its own since the last fsync. */
  private mix(rel: string, key: string, durable: Buffer, rand: () => number, mixRate: number): Buffer {
    if (mixRate === 0) return durable;
    let live: Buffer;
    try {
      const file = path.join(this.root, rel);
      if (keyOf(fs.lstatSync(file)) !== key) return durable;
      live = fs.readFileSync(file);
    } catch {
      return durable;
    }
    if (live.equals(durable)) return durable;
    const length = rand() < 0.5 ? durable.length : live.length;
    const result = Buffer.alloc(length);
    durable.copy(result, 0, 0, Math.min(length, durable.length));
    for (let at = 0; at < length; at += BLOCK) {
      const end = Math.min(at + BLOCK, length);
      // Each block: the durable one (zeros past the durable end), or the live one if written back.
      if (at < live.length && rand() < mixRate) live.copy(result, at, at, Math.min(end, live.length));
    }
    return result;
  }
}

/** The argument of test/crash-writer.ts, the crash test's write-heavy child process. */
export interface CrashWriterArgs {
  dir: string;
  log: string;
  cutsDir: string;
  /** The durability window; null: PGlite as it ships (fsync off), the test's control. */
  windowMs: number | null;
  seed: number;
  /** When to take images, in ms of the writer running after its writes start (its log clock). */
  cutAtMs: number[];
  /** The share of blocks written since their file's last fsync that the "kernel" wrote back. */
  mixRate: number;
}

/** The tables test/crash-writer.ts fills; the test creates them once. */
export const CRASH_SCHEMA = `
  CREATE TABLE IF NOT EXISTS counters (chat int PRIMARY KEY, n int NOT NULL);
  CREATE TABLE IF NOT EXISTS msgs (chat int NOT NULL, seq int NOT NULL, body text NOT NULL, PRIMARY KEY (chat, seq));
  CREATE INDEX IF NOT EXISTS msgs_by_length ON msgs (length(body), chat);
  -- Every 23rd message is 4.8 kB of hex, which neither compresses nor fits a page: it is TOASTed.
  CREATE OR REPLACE FUNCTION body_of(c int, s int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(md5(c || ':' || s || ':' || g), '')
    FROM generate_series(1, CASE WHEN s % 23 = 0 THEN 150 ELSE 1 + s % 4 END) g
  $$;
`;
