import { Redis } from "ioredis";
import type { BusEvent, EventBus } from "../ports/bus.ts";

const MAX_EVENTS_PER_STREAM = 20_000;

/**
 * Scale-out bus: each stream is a Redis Stream (kept, so readers can resume by id); a pub/sub
 * message on append wakes readers, so one subscriber connection serves every reader of a process.
 */
export class RedisEventBus implements EventBus {
  readonly driver = "redis" as const;
  private commands: Redis;
  private subscriber: Redis;
  private waiters = new Map<string, Set<() => void>>();
  /** Readers per channel: subscribe on the first, unsubscribe after the last. */
  private readers = new Map<string, number>();

  constructor(
    url: string,
    private prefix = "hearth",
  ) {
    // Auto-pipelining sends the commands of one event-loop turn together: with a thousand
    // streams, their appends and reads share round trips instead of queueing one by one.
    this.commands = new Redis(url, { maxRetriesPerRequest: 3, enableAutoPipelining: true });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    this.commands.on("error", () => {});
    this.subscriber.on("error", () => {});
    this.subscriber.on("message", (channel: string) => {
      const set = this.waiters.get(channel);
      if (!set) return;
      this.waiters.delete(channel);
      for (const wake of set) wake();
    });
  }

  private key = (stream: string) => `${this.prefix}:bus:${stream}`;

  async append<T>(stream: string, data: T): Promise<string> {
    const key = this.key(stream);
    // One round trip, two commands (auto-pipelined, run in order on one connection; no MULTI, which
    // would add two more per token): the wake-up carries no id, readers read the stream, so a
    // wake-up after a failed XADD only finds nothing new.
    const appended = this.commands.xadd(
      key,
      "MAXLEN",
      "~",
      MAX_EVENTS_PER_STREAM,
      "*",
      "d",
      JSON.stringify(data),
    );
    this.commands.publish(key, "").catch(() => {});
    const id = await appended;
    if (!id) throw new Error("The event was not appended.");
    return id;
  }

  async range<T>(stream: string): Promise<BusEvent<T>[]> {
    const rows = await this.commands.xrange(this.key(stream), "-", "+");
    return rows.map(([id, fields]) => ({ id, data: JSON.parse(fields[1] ?? "null") as T }));
  }

  async *read<T>(stream: string, afterId: string, signal: AbortSignal): AsyncIterable<BusEvent<T>> {
    const key = this.key(stream);
    const count = (this.readers.get(key) ?? 0) + 1;
    this.readers.set(key, count);
    if (count === 1) await this.subscriber.subscribe(key);
    try {
      let last = afterId === "0" ? "-" : `(${afterId}`;
      while (!signal.aborted) {
        // Register for the wake-up before reading, so an append between the two is not missed.
        const woken = this.wakeOn(key, signal);
        const rows = await this.commands.xrange(key, last, "+", "COUNT", 500);
        if (rows.length === 0) {
          await woken;
          continue;
        }
        for (const [id, fields] of rows) {
          last = `(${id}`;
          yield { id, data: JSON.parse(fields[1] ?? "null") as T };
        }
      }
    } finally {
      const left = (this.readers.get(key) ?? 1) - 1;
      if (left > 0) this.readers.set(key, left);
      else {
        this.readers.delete(key);
        // A channel left subscribed only delivers wake-ups nobody waits for; the stream is the truth.
        await this.subscriber.unsubscribe(key).catch(() => {});
      }
    }
  }

  private wakeOn(channel: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(channel);
      if (!set) {
        set = new Set();
        this.waiters.set(channel, set);
      }
      const done = () => {
        signal.removeEventListener("abort", done);
        this.waiters.get(channel)?.delete(done);
        resolve();
      };
      set.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async expire(stream: string, ttlSeconds: number): Promise<void> {
    await this.commands.expire(this.key(stream), ttlSeconds);
  }

  async ping(): Promise<void> {
    await this.commands.ping();
  }

  async close(): Promise<void> {
    for (const set of this.waiters.values()) for (const wake of set) wake();
    this.waiters.clear();
    this.subscriber.disconnect();
    this.commands.disconnect();
  }
}
