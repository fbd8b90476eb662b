import { Queue, Worker } from "bullmq";
import type { JobHandler, JobOptions, JobQueue } from "../ports/queue.ts";
import { connectRedis, type RedisClient, type RedisTarget, redisTarget } from "./redis-connect.ts";

/** Scale-out queue: BullMQ on Redis; any Hearth process with a worker may take a job. */
export class BullJobQueue implements JobQueue {
  readonly driver = "redis" as const;
  private connection: RedisClient;
  private queues = new Map<string, Queue>();
  private workers = new Map<string, Worker>();
  private prefix: string;

  constructor(target: RedisTarget | string, prefix = "hearth") {
    // BullMQ requires maxRetriesPerRequest: null on the connections its workers block on.
    this.connection = connectRedis(target, { maxRetriesPerRequest: null, lazyConnect: false });
    this.connection.on("error", () => {});
    // On a cluster a queue's scripts touch many of its keys at once: the prefix as a hash tag
    // keeps them in one slot, as BullMQ asks.
    this.prefix = redisTarget(target).cluster ? `{${prefix}}` : prefix;
  }

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue<T>(name: string, data: T, opts: JobOptions = {}): Promise<string> {
    const job = await this.queue(name).add(name, data, {
      jobId: opts.jobId,
      priority: opts.priority && opts.priority > 0 ? opts.priority : undefined,
      attempts: opts.attempts ?? 1,
      // A finished job keeps its id in BullMQ and would refuse the next job given that id; the
      // port promises only that a waiting or active one is not added twice, so those go at once.
      removeOnComplete: opts.jobId ? true : { count: 1000 },
      removeOnFail: opts.jobId ? true : { count: 1000 },
    });
    return job.id ?? "";
  }

  process<T>(name: string, handler: JobHandler<T>, opts: { concurrency?: number } = {}): void {
    const worker = new Worker(
      name,
      async (job) => handler(job.data as T, { id: job.id ?? "", attempt: job.attemptsMade + 1 }),
      { connection: this.connection.duplicate(), prefix: this.prefix, concurrency: opts.concurrency ?? 1 },
    );
    worker.on("error", () => {});
    this.workers.set(name, worker);
  }

  async pause(name: string): Promise<void> {
    // Only this process's worker: the queue itself stays open to the others. Its running jobs
    // are not waited for here (a generation's wake-up returns at once when its line drains).
    await this.workers.get(name)?.pause(true);
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.connection.disconnect();
  }
}
