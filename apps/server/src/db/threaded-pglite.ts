import { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";
import type { EmbeddedStats } from "./embedded-maintenance.ts";
import {
  type EmbeddedTarget,
  fromWireError,
  type ThreadReply,
  type ThreadRequest,
  toWireOptions,
} from "./pglite-wire.ts";

/** A request before its id is given (`call` gives it). */
type Request = ThreadRequest extends infer R ? (R extends ThreadRequest ? Omit<R, "id"> : never) : never;

/** The part of PGlite's transaction that Drizzle uses. */
export interface ThreadedTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * PGlite on its own thread (decision 022), as Drizzle's PGlite driver sees it: `query`, `exec`
 * and `transaction`, each a message to pglite-thread.ts and its answer. PGlite runs every
 * statement as synchronous WebAssembly; in the main thread each one held the event loop, so every
 * reply's tokens waited behind every other request's statements. Here they run beside it.
 *
 * The thread keeps the process alive only while a request is unanswered (a CLI command's last
 * query still gets its answer; an idle open database does not hold the process). If the thread
 * dies, every request unanswered and every later one fails with its error, and `onLost`'s
 * listeners hear of it (the server exits).
 */
export class ThreadedPglite {
  private pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private stopped: Error | null = null;
  private lostListeners: ((error: Error) => void)[] = [];

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on("message", (reply: ThreadReply) => this.answered(reply));
    worker.on("error", (error) => this.lost(error));
    worker.on("exit", (code) =>
      this.lost(new Error(`The embedded database's thread stopped (exit code ${code}).`)),
    );
  }

  /** Starts the thread and waits until PGlite is open (or failed to open) in it. */
  static async open(target: EmbeddedTarget): Promise<ThreadedPglite> {
    // TypeScript runs through tsx's loader in the thread too (pglite-thread.mjs).
    const worker = new Worker(new URL("./pglite-thread.mjs", import.meta.url), { workerData: target });
    const client = new ThreadedPglite(worker);
    try {
      await client.call({ op: "ready" });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return client;
  }

  query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.queryIn<T>(undefined, text, params, options);
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.execIn(undefined, text, options);
  }

  /** A statement, in transaction `tx` when given. */
  private async queryIn<T>(
    tx: number | undefined,
    text: string,
    params: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    return (await this.call({
      op: "query",
      tx,
      text,
      params,
      options: toWireOptions(options),
    })) as Results<T>;
  }

  private async execIn(tx: number | undefined, text: string, options?: QueryOptions): Promise<Results[]> {
    return (await this.call({ op: "exec", tx, text, options: toWireOptions(options) })) as Results[];
  }

  /**
   * BEGIN, `run`, then COMMIT, or ROLLBACK if it threw or rolled back. Other statements wait in
   * the thread until it ends, as PGlite's own transactions make them.
   */
  async transaction<T>(run: (tx: ThreadedTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: "begin" })) as number;
    let closed = false;
    const tx: ThreadedTransaction = {
      query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) =>
        this.queryIn<R>(id, text, params, options),
      exec: (text: string, options?: QueryOptions) => this.execIn(id, text, options),
      rollback: async () => {
        closed = true;
        await this.call({ op: "rollback", tx: id });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await run(tx);
    } catch (error) {
      if (!closed) await tx.rollback();
      throw error;
    }
    if (!closed) {
      closed = true;
      await this.call({ op: "commit", tx: id });
    }
    return result;
  }

  /** The data directory as a tar, taken between transactions (features/backups). */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([(await this.call({ op: "dump" })) as ArrayBuffer]);
  }

  /** The embedded database's figures for /metrics; null for a database in memory. */
  stats(): Promise<EmbeddedStats | null> {
    return this.call({ op: "stats" }) as Promise<EmbeddedStats | null>;
  }

  /**
   * Calls `listener` if the thread stops without being closed (an uncaught error or out of memory
   * there): every statement from then on fails, so a server exits to be started again.
   */
  onLost(listener: (error: Error) => void): void {
    this.lostListeners.push(listener);
  }

  /** Closes PGlite (its shutdown checkpoint and last WAL flush), then the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.call({ op: "close" });
    } finally {
      this.stopped ??= new Error("The embedded database is closed.");
      await this.worker.terminate();
    }
  }

  private call(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      (request as ThreadRequest).id = id;
      this.worker.postMessage(request);
    });
  }

  private answered(reply: ThreadReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ("error" in reply) waiting.reject(fromWireError(reply.error));
    else waiting.resolve(reply.result);
  }

  private lost(error: Error): void {
    const first = this.stopped === null;
    this.stopped ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    // Once: a close() has already set `stopped` by the time its thread exits, so it is not lost.
    if (first) for (const listener of this.lostListeners) listener(error);
  }
}
