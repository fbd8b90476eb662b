/**
 * Durable writes for the embedded database (decision 019).
 *
 * PGlite 0.5.14 starts PostgreSQL with `-F` (fsync off), and its Node file system (Emscripten's
 * NODEFS) has no fsync at all: `fsync()` reaches a stream without an `fsync` operation and
 * `fdatasync()` is a stub that returns 0. Every write does reach the operating system (NODEFS
 * writes with `fs.writeSync`), so a killed process loses nothing, but a power cut loses whatever
 * the kernel had not written back, in any order, which can leave the data directory unreadable.
 *
 * Here PostgreSQL runs with fsync on and `wal_sync_method=fsync`, and the file system gets a real
 * fsync. PostgreSQL then asks for every flush it needs, in the order it needs (data files, then
 * the checkpoint record, then pg_control; a segment and its directory before a rename...), and
 * each request is carried out at once, except one kind: a commit's flush of a WAL segment. The
 * commit's WAL is written to the kernel before the commit returns, as before; its fsync is
 * gathered with others and made within the window (`HEARTH_DURABILITY_WINDOW_MS`), on libuv's
 * thread pool so the event loop keeps going. To keep PostgreSQL's rule that WAL reaches the disk
 * before the data it describes, any change to a file other than a WAL segment (a write that is
 * not all zeros, a truncation, a rename, a removal, a new file) first makes the gathered WAL
 * durable, synchronously. A window of 0 makes every commit wait for its fsync, as PostgreSQL
 * itself does with `synchronous_commit=on`.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { allZero, fsyncFd, fsyncPath, fsyncPathAsync, syncParents, syncTree } from "./fsync.ts";

/** Watches the fsyncs this module makes; the crash test builds its "after a power cut" disk from it. */
export interface DurabilityProbe {
  /**
   * Called just before `file` (a file or a directory) is fsynced; the function it returns is
   * called once the fsync has finished. What the file held at the first call is on disk after the
   * second.
   */
  beforeSync(file: string): () => void;
  /** A point inside PostgreSQL's work where a power cut is worth trying (test only). */
  point?(what: "data-change" | "wal-commit"): void;
}

export interface DurabilityOptions {
  /** At most this many milliseconds of acknowledged commits can be lost on power loss; 0: none. */
  windowMs: number;
  probe?: DurabilityProbe;
}

export interface DurablePglite {
  client: PGlite;
  /** Closes PGlite: its shutdown checkpoint, then the last gathered WAL. */
  close(): Promise<void>;
}

/** PGlite's start parameters less `-F`, with fsync on and WAL flushed by fsync() (fdatasync() is a stub). */
export function durableStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams.filter((param) => param !== "-F"),
    "-c",
    "fsync=on",
    "-c",
    "wal_sync_method=fsync",
  ];
}

/** Opens PGlite on `dir` with durable writes. `options` are PGlite's own (extensions...). */
export async function openDurablePglite(
  dir: string,
  options: Omit<PGliteOptions, "fs" | "dataDir" | "startParams">,
  durability: DurabilityOptions,
): Promise<DurablePglite> {
  const root = path.resolve(dir);
  const state = new WalState(root, durability);
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...options,
      dataDir: root,
      fs: new DurableNodeFS(root, state),
      startParams: durableStartParams(),
    });
  } catch (error) {
    registry.delete(root);
    throw error;
  }
  // What PGlite wrote while it opened is made durable here only when this directory has never
  // been synced whole (new, copied in, or last run by a Hearth without durable writes): from
  // then on PostgreSQL asks for each flush it needs, and after a crash it fsyncs the whole
  // directory itself before recovery (SyncDataDirectory).
  state.flushSync();
  ensureSyncedOnce(root, state.probe);
  return {
    client,
    async close() {
      try {
        // The shutdown checkpoint fsyncs what it wrote; closeFs flushes the WAL left gathered.
        await client.close();
      } finally {
        state.flushSync();
        state.closed = true;
        registry.delete(root);
      }
    },
  };
}

/** Marks a data directory fsynced whole; it names the directory's inode, so a copy is synced again. */
const SYNCED_MARK = "hearth-synced";

function ensureSyncedOnce(root: string, probe: DurabilityProbe | undefined): void {
  const stat = fs.statSync(root);
  const identity = `${stat.dev}:${stat.ino}:${Math.round(stat.birthtimeMs)}`;
  const mark = path.join(root, SYNCED_MARK);
  let current: string | null = null;
  try {
    current = fs.readFileSync(mark, "utf8");
  } catch {}
  if (current === identity) return;
  syncTree(root, probe);
  syncParents(root, probe);
  fs.writeFileSync(mark, identity);
  fsyncPath(mark, probe);
  fsyncPath(root, probe);
}

const WAL_SEGMENT = /[/\\]pg_wal[/\\][0-9A-F]{24}$/;

/** The WAL segments written by commits whose fsync is still to come, per data directory. */
class WalState {
  readonly probe: DurabilityProbe | undefined;
  readonly windowMs: number;
  closed = false;
  /** Segments written since the last flush began, with the time of their first unflushed commit. */
  private dirty = new Map<string, number>();
  /** Segments a background flush is making durable now, with the same times. */
  private flying = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** When the gathered WAL must be flushed at the latest (see dueAt()); Infinity: nothing gathered. */
  private due = Number.POSITIVE_INFINITY;
  private inFlight: Promise<void> | null = null;
  private failure: Error | null = null;
  /** Segments whose directory entry has been fsynced. */
  private readonly known = new Set<string>();

  constructor(
    readonly root: string,
    options: DurabilityOptions,
  ) {
    this.windowMs = options.windowMs;
    this.probe = options.probe;
    registry.set(root, this);
  }

  get pending(): boolean {
    return this.dirty.size > 0 || this.flying.size > 0;
  }

  /** PostgreSQL asked to fsync a WAL segment (a commit, or the end of a segment). */
  walFsync(file: string, fd: number): void {
    if (this.failure) throw this.failure;
    this.probe?.point?.("wal-commit");
    if (this.windowMs === 0) {
      fsyncFd(fd, file, this.probe);
      this.syncDirOnce(file);
      return;
    }
    const now = Date.now();
    if (!this.dirty.has(file)) this.dirty.set(file, now);
    this.due = this.dueAt();
    // The timer may be late when the event loop is busy: the next commit flushes in its stead.
    if (this.due <= now) this.flushSync();
    else this.schedule();
  }

  /**
   * Called at every read and write PGlite makes: a long statement holds the event loop, so the
   * timer cannot fire, but its file accesses land here and flush the WAL once it is due. Cheap:
   * one clock read and a comparison.
   */
  checkDue(): void {
    if (this.due === Number.POSITIVE_INFINITY || this.failure || this.closed) return;
    if (Date.now() >= this.due) this.flushSync();
  }

  /** A file other than a WAL segment is about to change: the WAL must reach the disk first. */
  beforeDataChange(): void {
    if (this.failure) throw this.failure;
    if (!this.pending) return;
    this.probe?.point?.("data-change");
    this.flushSync();
  }

  /** Makes every gathered segment durable before returning. */
  flushSync(): void {
    if (this.failure) throw this.failure;
    const files = new Set([...this.flying.keys(), ...this.dirty.keys()]);
    this.dirty.clear();
    this.flying.clear();
    this.due = Number.POSITIVE_INFINITY;
    this.clearTimer();
    for (const file of files) {
      fsyncPath(file, this.probe);
      this.syncDirOnce(file);
    }
  }

  /**
   * The latest moment to begin a synchronous flush: half a window after the oldest commit not yet
   * being flushed (the other half is the margin for the flush itself and a late event loop), or a
   * whole window after the oldest commit of a background flush that has not finished.
   */
  private dueAt(): number {
    let due = Number.POSITIVE_INFINITY;
    for (const since of this.dirty.values()) due = Math.min(due, since + this.windowMs / 2);
    for (const since of this.flying.values()) due = Math.min(due, since + this.windowMs);
    return due;
  }

  private schedule(): void {
    if (this.timer || this.inFlight || this.dirty.size === 0) return;
    const delay = Math.max(0, this.dueAt() - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flushAsync();
    }, delay);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flushAsync(): Promise<void> {
    if (this.inFlight || this.dirty.size === 0 || this.closed) return this.inFlight ?? Promise.resolve();
    this.clearTimer();
    this.flying = this.dirty;
    this.dirty = new Map();
    this.due = this.dueAt();
    const files = [...this.flying.keys()];
    const run = async () => {
      // One flush begins for every gathered segment at once (the probe sees them begin together),
      // though the thread pool fsyncs them one after another.
      const begun = files.map((file) => ({ file, done: this.probe?.beforeSync(file) }));
      try {
        for (const { file, done } of begun) {
          await fsyncPathAsync(file);
          done?.();
          if (!this.known.has(file)) {
            const dirDone = this.probe?.beforeSync(path.dirname(file));
            await fsyncPathAsync(path.dirname(file));
            dirDone?.();
            this.known.add(file);
          }
        }
      } catch (error) {
        // The kernel may have dropped the pages it failed to write: nothing can be promised any
        // more, so the next commit fails (PostgreSQL then stops, as it does on a failed fsync).
        this.failure = error as Error;
      } finally {
        this.flying = new Map();
        this.due = this.dueAt();
        this.inFlight = null;
        this.schedule();
      }
    };
    this.inFlight = run();
    return this.inFlight;
  }

  private syncDirOnce(file: string): void {
    if (this.known.has(file)) return;
    fsyncPath(path.dirname(file), this.probe);
    this.known.add(file);
  }
}

const registry = new Map<string, WalState>();

// --- The file system: PGlite's NodeFS with fsync, and the WAL-before-data rule -----------------

/** The parts of Emscripten's FS and NODEFS this module touches. */
interface EmNode {
  mount: { opts: { root?: string } };
}
interface EmStream {
  node: EmNode;
  nfd: number;
}
type Ops = Record<string, (...args: never[]) => unknown>;
interface EmNodeFs {
  realPath(node: EmNode): string;
  tryFSOperation<T>(operation: () => T): T;
  node_ops: Ops;
  stream_ops: Ops;
}
interface EmModule {
  FS: { filesystems: { NODEFS: EmNodeFs } };
}

const PATCHED = Symbol.for("hearth.durable-nodefs");

class DurableNodeFS extends NodeFS {
  constructor(
    dataDir: string,
    private readonly state: WalState,
  ) {
    super(dataDir);
  }

  override async init(...args: Parameters<NodeFS["init"]>): ReturnType<NodeFS["init"]> {
    const result = await super.init(...args);
    const preRun = result.emscriptenOpts.preRun ?? [];
    result.emscriptenOpts.preRun = [
      (module: unknown) => patchNodeFs((module as EmModule).FS.filesystems.NODEFS),
      ...(Array.isArray(preRun) ? preRun : [preRun]),
    ];
    return result;
  }

  override async closeFs(): Promise<void> {
    this.state.flushSync();
    await super.closeFs();
  }
}

/**
 * Gives NODEFS an fsync and puts the WAL-before-data rule in front of every change. The state is
 * looked up by the mount's root, so each PGlite's directory follows its own window.
 */
function patchNodeFs(nodefs: EmNodeFs): void {
  const patched = nodefs as EmNodeFs & { [PATCHED]?: true };
  if (patched[PATCHED]) return;
  patched[PATCHED] = true;
  const stateOf = (node: EmNode) => {
    const root = node.mount?.opts?.root;
    return root === undefined ? undefined : registry.get(path.resolve(root));
  };
  const isWal = (node: EmNode) => WAL_SEGMENT.test(nodefs.realPath(node));
  const streamOps = nodefs.stream_ops as Record<string, (...args: unknown[]) => unknown>;
  const nodeOps = nodefs.node_ops as Record<string, (...args: unknown[]) => unknown>;

  streamOps.fsync = (stream) => {
    const { node, nfd } = stream as EmStream;
    return nodefs.tryFSOperation(() => {
      const state = stateOf(node);
      const file = nodefs.realPath(node);
      if (state && WAL_SEGMENT.test(file)) {
        state.walFsync(file, nfd);
      } else {
        state?.beforeDataChange();
        fsyncFd(nfd, file, state?.probe);
      }
      return 0;
    });
  };

  const read = streamOps.read as (...args: unknown[]) => number;
  streamOps.read = (stream, ...rest) => {
    const state = stateOf((stream as EmStream).node);
    if (state) nodefs.tryFSOperation(() => state.checkDue());
    return read(stream, ...rest);
  };

  const write = streamOps.write as (...args: unknown[]) => number;
  streamOps.write = (stream, buffer, offset, length, position, canOwn) => {
    const { node } = stream as EmStream;
    const state = stateOf(node);
    if (state) nodefs.tryFSOperation(() => state.checkDue());
    if (
      state?.pending &&
      !isWal(node) &&
      !allZero(buffer as Uint8Array | Int8Array, offset as number, length as number)
    ) {
      nodefs.tryFSOperation(() => state.beforeDataChange());
    }
    return write(stream, buffer, offset, length, position, canOwn);
  };

  const streamSetattr = streamOps.setattr as (...args: unknown[]) => unknown;
  streamOps.setattr = (stream, attr) => {
    const { node } = stream as EmStream;
    if ((attr as { size?: number }).size !== undefined) guard(node);
    return streamSetattr(stream, attr);
  };
  const nodeSetattr = nodeOps.setattr as (...args: unknown[]) => unknown;
  nodeOps.setattr = (node, attr) => {
    if ((attr as { size?: number }).size !== undefined) guard(node as EmNode);
    return nodeSetattr(node, attr);
  };
  // Names change: a new relation file, a dropped one, a renamed state file.
  for (const name of ["mknod", "rename", "unlink", "rmdir", "symlink"]) {
    const original = nodeOps[name] as (...args: unknown[]) => unknown;
    nodeOps[name] = (parent, ...rest) => {
      const state = stateOf(parent as EmNode);
      if (state?.pending) nodefs.tryFSOperation(() => state.beforeDataChange());
      return original(parent, ...rest);
    };
  }

  function guard(node: EmNode): void {
    const state = stateOf(node);
    if (state?.pending && !isWal(node)) nodefs.tryFSOperation(() => state.beforeDataChange());
  }
}
