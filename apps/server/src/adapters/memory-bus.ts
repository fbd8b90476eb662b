import type { BusEvent, EventBus } from "../ports/bus.ts";
import { watchFor } from "./notice-watchers.ts";

interface Stream {
  events: BusEvent[];
  seq: number;
  wake: Set<() => void>;
  expiry?: NodeJS.Timeout;
}

/** The embedded bus: streams held in memory, readers woken on append. */
export class MemoryEventBus implements EventBus {
  readonly driver = "in-process" as const;
  private streams = new Map<string, Stream>();
  private notices = new Map<string, { data: unknown; expiry: NodeJS.Timeout }>();
  private watchers = new Map<string, Set<(data: unknown) => void>>();

  private stream(name: string): Stream {
    let s = this.streams.get(name);
    if (!s) {
      s = { events: [], seq: 0, wake: new Set() };
      this.streams.set(name, s);
    }
    return s;
  }

  async append<T>(name: string, data: T): Promise<string> {
    const s = this.stream(name);
    s.seq += 1;
    const id = String(s.seq);
    s.events.push({ id, data });
    for (const wake of s.wake) wake();
    s.wake.clear();
    return id;
  }

  async *read<T>(name: string, afterId: string, signal: AbortSignal): AsyncIterable<BusEvent<T>> {
    let last = Number(afterId) || 0;
    // One abort listener for the whole read, not one per wait: a wait is a token, and adding and
    // removing an AbortSignal listener each time was a good part of what a token cost here.
    let waiting: { stream: Stream; wake: () => void } | null = null;
    const wakeOnAbort = () => {
      if (!waiting) return;
      waiting.stream.wake.delete(waiting.wake);
      waiting.wake();
    };
    signal.addEventListener("abort", wakeOnAbort, { once: true });
    try {
      while (!signal.aborted) {
        const s = this.stream(name);
        // Ids are positions (1, 2, ...) and events are never dropped one by one: slice, not scan.
        if (s.events.length > last) {
          for (const e of s.events.slice(last)) {
            last = Number(e.id);
            yield e as BusEvent<T>;
          }
          continue;
        }
        await new Promise<void>((wake) => {
          waiting = { stream: s, wake };
          s.wake.add(wake);
        });
        waiting = null;
      }
    } finally {
      signal.removeEventListener("abort", wakeOnAbort);
    }
  }

  async range<T>(name: string): Promise<BusEvent<T>[]> {
    return [...(this.streams.get(name)?.events ?? [])] as BusEvent<T>[];
  }

  async expire(name: string, ttlSeconds: number): Promise<void> {
    const s = this.stream(name);
    if (s.expiry) clearTimeout(s.expiry);
    s.expiry = setTimeout(() => this.streams.delete(name), ttlSeconds * 1000);
    s.expiry.unref();
  }

  async notify(name: string, data: unknown, ttlSeconds: number): Promise<void> {
    const kept = this.notices.get(name);
    if (kept) clearTimeout(kept.expiry);
    const expiry = setTimeout(() => this.notices.delete(name), ttlSeconds * 1000);
    expiry.unref();
    this.notices.set(name, { data, expiry });
    for (const take of [...(this.watchers.get(name) ?? [])]) take(data);
  }

  watch<T>(name: string, signal: AbortSignal): Promise<T | null> {
    const kept = this.notices.get(name);
    if (kept) return Promise.resolve(kept.data as T);
    return watchFor<T>(this.watchers, name, signal);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    for (const s of this.streams.values()) {
      if (s.expiry) clearTimeout(s.expiry);
      for (const wake of s.wake) wake();
    }
    this.streams.clear();
    for (const n of this.notices.values()) clearTimeout(n.expiry);
    this.notices.clear();
    for (const set of this.watchers.values()) for (const take of [...set]) take(null);
  }
}
