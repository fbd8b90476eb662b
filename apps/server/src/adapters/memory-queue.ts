import { randomUUID } from "node:crypto";
import type { JobHandler, JobOptions, JobQueue } from "../ports/queue.ts";

interface PendingJob {
  id: string;
  data: unknown;
  priority: number;
  attemptsLeft: number;
  attempt: number;
  seq: number;
}

interface Lane {
  waiting: PendingJob[];
  /** The running jobs by id, each with its settled promise, so `close` can wait for them. */
  running: Map<string, Promise<void>>;
  handler?: JobHandler<unknown>;
  concurrency: number;
  paused?: boolean;
}

/** The embedded queue: jobs run in this process, lower priority value first, then FIFO. */
export class MemoryJobQueue implements JobQueue {
  readonly driver = "in-process" as const;
  private lanes = new Map<string, Lane>();
  private seq = 0;
  private closed = false;

  /**
   * @param closeWaitMs how long `close` waits for running jobs: they finish before the
   * database closes under them (as BullMQ's worker does), but a hung job cannot hold shutdown.
   */
  constructor(private readonly closeWaitMs = 10_000) {}

  private lane(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = { waiting: [], running: new Map(), concurrency: 1 };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  async enqueue<T>(name: string, data: T, opts: JobOptions = {}): Promise<string> {
    const lane = this.lane(name);
    const id = opts.jobId ?? randomUUID();
    if (lane.running.has(id) || lane.waiting.some((j) => j.id === id)) return id;
    const attempts = Math.max(1, opts.attempts ?? 1);
    lane.waiting.push({
      id,
      data,
      priority: opts.priority ?? 0,
      attemptsLeft: attempts,
      attempt: 0,
      seq: this.seq++,
    });
    lane.waiting.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    queueMicrotask(() => this.pump(lane));
    return id;
  }

  process<T>(name: string, handler: JobHandler<T>, opts: { concurrency?: number } = {}): void {
    const lane = this.lane(name);
    lane.handler = handler as JobHandler<unknown>;
    lane.concurrency = Math.max(1, opts.concurrency ?? 1);
    queueMicrotask(() => this.pump(lane));
  }

  async pause(name: string): Promise<void> {
    this.lane(name).paused = true;
  }

  private pump(lane: Lane) {
    while (
      !this.closed &&
      !lane.paused &&
      lane.handler &&
      lane.running.size < lane.concurrency &&
      lane.waiting.length > 0
    ) {
      const job = lane.waiting.shift() as PendingJob;
      job.attempt += 1;
      job.attemptsLeft -= 1;
      // Running from before the handler starts: an enqueue of the same id meanwhile is not added.
      let settled!: () => void;
      lane.running.set(job.id, new Promise<void>((resolve) => (settled = resolve)));
      const handler = lane.handler;
      void handler(job.data, { id: job.id, attempt: job.attempt })
        .catch(() => {
          if (job.attemptsLeft > 0 && !this.closed) lane.waiting.unshift(job);
        })
        .finally(() => {
          lane.running.delete(job.id);
          settled();
          this.pump(lane);
        });
    }
  }

  async ping(): Promise<void> {}

  /** Takes no more jobs, then waits (at most `closeWaitMs`) for the running ones to settle. */
  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.lanes.values()].flatMap((lane) => [...lane.running.values()]);
    if (running.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.closeWaitMs);
      timer.unref();
    });
    await Promise.race([Promise.all(running), bound]);
    clearTimeout(timer);
  }
}
