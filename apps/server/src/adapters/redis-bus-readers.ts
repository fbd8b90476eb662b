import type { BusEvent } from "../ports/bus.ts";

/**
 * What the Redis bus keeps of the streams a process reads (redis-bus.ts): each stream's readers
 * and holds, each reader's place, and how an event arriving from memory, the channel or the
 * stream is taken once, in order.
 */

/** A stream this process reads or holds (RedisEventBus.readers). */
export interface Channel {
  set: Set<Reader>;
  registered: Promise<unknown>;
  /** Held appends whose read has not begun (each let go after HOLD_MS). */
  holds: object[];
  /**
   * The newest event id this process has seen of the stream while registered: a read that takes
   * up a hold from there needs no first fill.
   */
  last: string | null;
}

/** Notes the newest event id of a stream this process has seen. */
export function seen(channel: Channel, id: string): void {
  if (channel.last === null || compareIds(id, channel.last) > 0) channel.last = id;
}

/** One open `read`: the id of the last event it took, and what it took but has not yet yielded. */
export interface Reader {
  last: string;
  queue: BusEvent[];
  /** An event arrived whose predecessor this reader has not seen: read the stream to fill the gap. */
  gap: boolean;
  wake: (() => void) | null;
}

/**
 * Takes an event into a reader's queue if it is the next one after the reader's last; an event
 * already taken is dropped (it comes both in memory and from the channel), and one after a gap
 * sends the reader to the stream for what it missed.
 */
export function offer(reader: Reader, prev: string, id: string, data: () => unknown): void {
  if (compareIds(id, reader.last) <= 0) return;
  if (prev !== reader.last) reader.gap = true;
  else {
    reader.queue.push({ id, data: data() });
    reader.last = id;
  }
  reader.wake?.();
}

/** Orders Redis stream ids (`ms-seq`); a bare number counts as `ms-0`, anything else as 0. */
export function compareIds(a: string, b: string): number {
  const [am, as] = parts(a);
  const [bm, bs] = parts(b);
  return am !== bm ? Math.sign(am - bm) : Math.sign(as - bs);
}

function parts(id: string): [number, number] {
  const dash = id.indexOf("-");
  const ms = Number(dash < 0 ? id : id.slice(0, dash));
  const seq = dash < 0 ? 0 : Number(id.slice(dash + 1));
  return [Number.isFinite(ms) ? ms : 0, Number.isFinite(seq) ? seq : 0];
}
