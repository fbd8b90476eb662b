import { Worker } from "node:worker_threads";
import { Semaphore } from "../../../lib/semaphore.ts";
import type { ImportNames, PreparedChat } from "./prepared.ts";
import { fromWireError, type ReadReply, type ReadRequest } from "./reading-wire.ts";

/**
 * Whole chat files read at once, each on its own thread: each holds its file and what it parses
 * to (several times the file) in memory, and a core; later files wait in line.
 */
export const CHAT_READS_AT_ONCE = 2;

/** The line of whole-file reads, so its load can be watched. */
export const chatReads = new Semaphore(CHAT_READS_AT_ONCE);

interface Thread {
  worker: Worker;
  waiting: Map<number, { resolve: (chat: PreparedChat) => void; reject: (error: Error) => void }>;
}

const idle: Thread[] = [];
let nextId = 1;

function startThread(): Thread {
  // TypeScript runs through tsx's loader in the thread too (reading-thread.mjs).
  const worker = new Worker(new URL("./reading-thread.mjs", import.meta.url));
  const thread: Thread = { worker, waiting: new Map() };
  worker.unref();
  worker.on("message", (reply: ReadReply) => {
    const waiting = thread.waiting.get(reply.id);
    thread.waiting.delete(reply.id);
    if ("chat" in reply) waiting?.resolve(reply.chat);
    else waiting?.reject(fromWireError(reply.error));
  });
  const lost = (error: Error) => {
    for (const waiting of thread.waiting.values()) waiting.reject(error);
    thread.waiting.clear();
    const at = idle.indexOf(thread);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on("error", lost);
  worker.on("exit", (code) => lost(new Error(`The chat reading thread stopped (exit code ${code}).`)));
  return thread;
}

/** Moves the file's bytes when it owns its memory alone; a view into shared memory is copied. */
function movable(file: Buffer): Uint8Array {
  const whole = file.byteOffset === 0 && file.byteLength === file.buffer.byteLength;
  return whole && file.buffer instanceof ArrayBuffer ? file : new Uint8Array(file);
}

const BLOCK_BYTES = 1024 * 1024;

/**
 * An upload's chunks copied, as they arrive, into blocks of its own memory that can move to a
 * reading thread: one chunk's copy at a time, never the whole file's at once.
 */
export class FileBlocks {
  private full: Uint8Array[] = [];
  private block = new Uint8Array(BLOCK_BYTES);
  private used = 0;

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, BLOCK_BYTES - this.used);
      this.block.set(chunk.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === BLOCK_BYTES) {
        this.full.push(this.block);
        this.block = new Uint8Array(BLOCK_BYTES);
        this.used = 0;
      }
    }
  }

  /** The blocks in order, the last cut to its length. */
  blocks(): Uint8Array[] {
    return this.used ? [...this.full, this.block.slice(0, this.used)] : this.full;
  }
}

/**
 * Reads a whole chat file on a reading thread (reading-thread.ts) and prepares it to store. The
 * file's memory moves to the thread: the caller's Buffer (or blocks) is empty afterwards. A refusal comes
 * back as the same HttpError reading it here would throw.
 */
export function readChatInThread(file: Buffer | FileBlocks, names: ImportNames): Promise<PreparedChat> {
  return chatReads.run(async () => {
    const thread = idle.pop() ?? startThread();
    const id = nextId++;
    const parts = Buffer.isBuffer(file) ? [movable(file)] : file.blocks();
    // The thread keeps the process alive only while it reads (a command's import gets its answer).
    thread.worker.ref();
    try {
      return await new Promise<PreparedChat>((resolve, reject) => {
        thread.waiting.set(id, { resolve, reject });
        const request: ReadRequest = { id, file: parts, names };
        thread.worker.postMessage(
          request,
          parts.map((part) => part.buffer as ArrayBuffer),
        );
      });
    } finally {
      thread.worker.unref();
      if (thread.worker.threadId !== -1) idle.push(thread);
    }
  });
}
