import { randomUUID } from "node:crypto";
import type { BusEvent, EventBus } from "../ports/bus.ts";
import { watchFor } from "./notice-watchers.ts";
import { type Channel, compareIds, offer, type Reader, seen } from "./redis-bus-readers.ts";
import { connectRedis, type RedisClient, type RedisTarget, redisTarget, slotTag } from "./redis-connect.ts";

export { compareIds };

const MAX_EVENTS_PER_STREAM = 20_000;

/**
 * Appends events to their streams and announces each in the same round trip to every other
 * process with a reader of it (the stream's reader set, less the appending process, ARGV[2]):
 * the stream's key, the id of the event before it (`0` for a stream's first), its own id, and
 * the event itself go to each such process's channel, so a reader whose last event is that
 * previous one takes it as it is, without reading the stream. The appending process's own
 * readers take it in memory, so nothing comes back to it.
 *
 * One call carries every append of an event-loop turn, for any number of streams (KEYS: stream,
 * reader set, stream, reader set, ...; ARGV: max length, origin, channel prefix, the reader
 * sets' lifetime, one flag per event (`1`: the origin joins that stream's reader set, a held
 * append), then one event per stream pair), in order; it answers prev, id, prev, id, ... A
 * thousand streams' tokens cost Redis and this process one script call per turn instead of one each.
 * On a Redis Cluster a script may touch one slot only: streams carry their slot group's hash tag
 * (`slotTag`, BUS_SLOTS groups) and a turn makes one call per group.
 */
const APPEND_SCRIPT = `
local out = {}
for i = 1, #KEYS, 2 do
  local key = KEYS[i]
  local n = (i + 1) / 2
  local data = ARGV[5 + n]
  local before = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  local prev = '0'
  if before[1] then prev = before[1][1] end
  local id = redis.call('XADD', key, 'MAXLEN', '~', ARGV[1], '*', 'd', data)
  local message = nil
  for _, process in ipairs(redis.call('SMEMBERS', KEYS[i + 1])) do
    if process ~= ARGV[2] then
      message = message or (key .. ' ' .. prev .. ' ' .. id .. ' ' .. data)
      redis.call('PUBLISH', ARGV[3] .. process, message)
    end
  end
  if string.sub(ARGV[5], n, n) == '1' then
    redis.call('SADD', KEYS[i + 1], ARGV[2])
    redis.call('EXPIRE', KEYS[i + 1], ARGV[4])
  end
  out[#out + 1] = prev
  out[#out + 1] = id
end
return out
`;

/** Appends in one script call at most: a script holds Redis for its whole run. */
const MAX_APPENDS_PER_CALL = 256;

/** A reader set outlives a process that died without leaving it this long at most. */
const READERS_TTL_S = 24 * 60 * 60;

/** A held append's registration is dropped if no read takes it up this long after. */
const HOLD_MS = 30_000;

type AppendingRedis = RedisClient & {
  hearthAppend(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<string[]>;
};

/** An append waiting for its turn's script call. */
interface PendingAppend {
  key: string;
  /** Appends of one slot go in one script call (on a cluster; one group on a single server). */
  slot: string;
  /** Joins this process to the stream's reader set in the same script call (a held append). */
  join: boolean;
  json: string;
  data: unknown;
  resolve: (id: string) => void;
  reject: (error: unknown) => void;
}

/**
 * Scale-out bus: each stream is a Redis Stream (kept, so readers can resume by id). A process
 * listens on one channel of its own; while it has readers of a stream it is in that stream's
 * reader set, and an append publishes the event, with its predecessor's id, to the channels of
 * the set's other processes (APPEND_SCRIPT). Readers in the appending process get it in memory
 * at once, readers elsewhere from their process's channel, and either reads the stream only when
 * the chain breaks (its first read, a missed message, an event from before it registered). One
 * subscription per process, not one per stream: no SUBSCRIBE and UNSUBSCRIBE per reply, and a
 * process is not sent its own events back.
 */
export class RedisEventBus implements EventBus {
  readonly driver = "redis" as const;
  /** This process's name in reader sets, and the suffix of its channel. */
  private readonly processId = randomUUID();
  private commands: AppendingRedis;
  private subscriber: RedisClient;
  /** On a Redis Cluster: each stream's keys carry its slot's hash tag (`slotTag`). */
  private readonly cluster: boolean;
  /** This process's channel, subscribed once; every registration waits for it. */
  private listening: Promise<unknown>;
  /** The streams read or held here: their readers, holds and registration in the reader set. */
  private readers = new Map<string, Channel>();
  /** Appends of this event-loop turn, sent together once it ends (APPEND_SCRIPT). */
  private pending: PendingAppend[] = [];
  /** Watches of notices here, by name (`watch`). */
  private watchers = new Map<string, Set<(data: unknown) => void>>();

  constructor(
    target: RedisTarget | string,
    private prefix = "hearth",
    /** How long a held append waits for its read (tests shorten it). */
    private holdMs = HOLD_MS,
  ) {
    // Auto-pipelining sends the commands of one event-loop turn together: with a thousand
    // streams, their appends and reads share round trips instead of queueing one by one. (Not
    // on a cluster, where each command goes as it is called: redis-connect.ts says why.)
    this.cluster = redisTarget(target).cluster;
    this.commands = connectRedis(target, {
      maxRetriesPerRequest: 3,
      enableAutoPipelining: true,
    }) as AppendingRedis;
    // The number of keys varies with the batch: given first at each call.
    this.commands.defineCommand("hearthAppend", { lua: APPEND_SCRIPT });
    this.subscriber = connectRedis(target, { maxRetriesPerRequest: null });
    this.commands.on("error", () => {});
    this.subscriber.on("error", () => {});
    this.subscriber.on("message", (channel: string, message: string) =>
      channel === this.noticesChannel() ? this.noticed(message) : this.announced(message),
    );
    // This process's own channel, and the one every process hears notices on (they are rare).
    this.listening = this.subscriber.subscribe(this.channelPrefix() + this.processId, this.noticesChannel());
    this.listening.catch(() => {});
  }

  /** The stream's slot group on a cluster (`slotTag`), none on a single server. */
  private slotOf = (stream: string) => (this.cluster ? slotTag(stream) : "");
  private key = (stream: string, slot = this.slotOf(stream)) =>
    slot ? `${this.prefix}:bus:${slot}:${stream}` : `${this.prefix}:bus:${stream}`;
  private readersKey = (key: string) => `${key}:readers`;
  private channelPrefix = () => `${this.prefix}:bus-to:`;
  private noticesChannel = () => `${this.prefix}:bus-notices`;
  private noticeKey = (name: string) => `${this.prefix}:notice:${name}`;

  append<T>(stream: string, data: T, options?: { hold?: boolean }): Promise<string> {
    const slot = this.slotOf(stream);
    const key = this.key(stream, slot);
    // A held append of a stream not read here yet joins its reader set in its own script call.
    const join = options?.hold === true && !this.readers.has(key);
    const appended = new Promise<string>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.sendAppends());
      this.pending.push({ key, slot, join, json: JSON.stringify(data), data, resolve, reject });
    });
    if (options?.hold) this.hold(key, appended);
    return appended;
  }

  /** Keeps this process registered for a read about to begin (`read` takes the hold up). */
  private hold(key: string, appended: Promise<string>): void {
    let channel = this.readers.get(key);
    if (!channel) {
      channel = { set: new Set(), registered: appended, holds: [], last: null };
      this.readers.set(key, channel);
      channel.registered.catch(() => {});
    }
    const held = channel;
    const hold = {};
    held.holds.push(hold);
    // A hold no read takes up (its request failed before it piped) is let go.
    const release = () => this.releaseHold(key, held, hold);
    appended.then(() => setTimeout(release, this.holdMs).unref(), release);
  }

  /** Lets go of a hold no read took up; the stream is left once it has neither holds nor readers. */
  private releaseHold(key: string, channel: Channel, hold: object): void {
    const at = channel.holds.indexOf(hold);
    if (at < 0) return;
    channel.holds.splice(at, 1);
    this.leaveIfUnread(key, channel);
  }

  private leaveIfUnread(key: string, channel: Channel): Promise<unknown> | undefined {
    if (channel.set.size > 0 || channel.holds.length > 0 || this.readers.get(key) !== channel)
      return undefined;
    this.readers.delete(key);
    // Sent before any later registration of this stream (one connection keeps the order).
    return this.commands.srem(this.readersKey(key), this.processId).catch(() => {});
  }

  /**
   * Sends the turn's appends (in order, MAX_APPENDS_PER_CALL a call, one slot a call) and hands
   * each event to this process's readers.
   */
  private sendAppends(): void {
    const batch = this.pending;
    this.pending = [];
    // A stream is always in one slot, so grouping keeps each stream's appends in order.
    const bySlot = new Map<string, PendingAppend[]>();
    for (const a of batch) {
      const group = bySlot.get(a.slot);
      if (group) group.push(a);
      else bySlot.set(a.slot, [a]);
    }
    for (const group of bySlot.values()) {
      for (let from = 0; from < group.length; from += MAX_APPENDS_PER_CALL) {
        this.sendAppendCall(group.slice(from, from + MAX_APPENDS_PER_CALL));
      }
    }
  }

  private sendAppendCall(part: PendingAppend[]): void {
    const keys: string[] = [];
    for (const a of part) keys.push(a.key, this.readersKey(a.key));
    const joins = part.map((a) => (a.join ? "1" : "0")).join("");
    const args = [
      MAX_EVENTS_PER_STREAM,
      this.processId,
      this.channelPrefix(),
      READERS_TTL_S,
      joins,
      ...part.map((a) => a.json),
    ];
    this.commands.hearthAppend(keys.length, ...keys, ...args).then(
      (answer) => {
        part.forEach((a, i) => {
          const prev = answer[2 * i];
          const id = answer[2 * i + 1];
          if (prev === undefined || !id) {
            a.reject(new Error("The event was not appended."));
            return;
          }
          const channel = this.readers.get(a.key);
          if (channel) {
            seen(channel, id);
            for (const reader of channel.set) offer(reader, prev, id, () => a.data);
          }
          a.resolve(id);
        });
      },
      (error: unknown) => {
        for (const a of part) a.reject(error);
      },
    );
  }

  async range<T>(stream: string): Promise<BusEvent<T>[]> {
    const rows = await this.commands.xrange(this.key(stream), "-", "+");
    return rows.map(([id, fields]) => ({ id, data: JSON.parse(fields[1] ?? "null") as T }));
  }

  async *read<T>(stream: string, afterId: string, signal: AbortSignal): AsyncIterable<BusEvent<T>> {
    const key = this.key(stream);
    const reader: Reader = { last: afterId, queue: [], gap: false, wake: null };
    let channel = this.readers.get(key);
    // Taking up a hold: registered already, and read from the held event on, nothing to fill
    // unless this process has seen a later event of the stream since.
    let filled = false;
    if (channel?.holds.shift()) filled = channel.last === afterId;
    if (!channel) {
      channel = { set: new Set(), registered: this.register(key), holds: [], last: null };
      this.readers.set(key, channel);
    }
    const { set } = channel;
    set.add(reader);
    const wakeOnAbort = () => reader.wake?.();
    signal.addEventListener("abort", wakeOnAbort, { once: true });
    try {
      // The first fill goes out behind the registration, in the same round trip (the commands of
      // one turn share a pipeline, in order): it reads what was appended before the process
      // joined the reader set, and what is appended after reaches it on the channel (an event
      // in both is taken once). register() awaits `listening` before this does, so its commands
      // are queued first.
      await this.listening;
      const firstFill = filled ? Promise.resolve() : this.fill(key, reader);
      firstFill.catch(() => {}); // awaited below, after the registration (which may fail first)
      await channel.registered;
      await firstFill;
      while (!signal.aborted) {
        if (reader.queue.length > 0) {
          const taken = reader.queue;
          reader.queue = [];
          for (const event of taken) yield event as BusEvent<T>;
          continue;
        }
        if (reader.gap) {
          reader.gap = false;
          await this.fill(key, reader);
          continue;
        }
        await new Promise<void>((resolve) => {
          reader.wake = resolve;
        });
        reader.wake = null;
      }
    } finally {
      signal.removeEventListener("abort", wakeOnAbort);
      set.delete(reader);
      await this.leaveIfUnread(key, channel);
    }
  }

  /** Joins the stream's reader set once this process's channel listens. */
  private async register(key: string): Promise<void> {
    await this.listening;
    const readers = this.readersKey(key);
    await Promise.all([
      this.commands.sadd(readers, this.processId),
      this.commands.expire(readers, READERS_TTL_S),
    ]);
  }

  /** Reads the stream after the reader's last event into its queue (500 at a time). */
  private async fill(key: string, reader: Reader): Promise<void> {
    const from = reader.last;
    const rows = await this.commands.xrange(key, from === "0" ? "-" : `(${from}`, "+", "COUNT", 500);
    let prev = from;
    for (const [id, fields] of rows) {
      offer(reader, prev, id, () => JSON.parse(fields[1] ?? "null"));
      prev = id;
    }
    if (rows.length === 500) reader.gap = true;
  }

  /** A channel message, `key prev id json`; parsed only for a reader that has not taken it yet. */
  private announced(message: string): void {
    const a = message.indexOf(" ");
    const b = message.indexOf(" ", a + 1);
    const c = message.indexOf(" ", b + 1);
    if (a < 0 || b < 0 || c < 0) return;
    const channel = this.readers.get(message.slice(0, a));
    if (!channel) return;
    const set = channel.set;
    const prev = message.slice(a + 1, b);
    const id = message.slice(b + 1, c);
    seen(channel, id);
    let data: unknown;
    let parsed = false;
    const parse = () => {
      if (!parsed) {
        data = JSON.parse(message.slice(c + 1));
        parsed = true;
      }
      return data;
    };
    for (const reader of set) offer(reader, prev, id, parse);
  }

  async expire(stream: string, ttlSeconds: number): Promise<void> {
    const key = this.key(stream);
    await Promise.all([
      this.commands.expire(key, ttlSeconds),
      this.commands.expire(this.readersKey(key), ttlSeconds),
    ]);
  }

  /** Kept for a late watch, and told to every process: the few that watch the name take it. */
  async notify(name: string, data: unknown, ttlSeconds: number): Promise<void> {
    const json = JSON.stringify(data);
    const kept = this.commands.set(this.noticeKey(name), json, "EX", ttlSeconds);
    // The notice is kept before any process hears of it: one connection keeps that order on a
    // single server; on a cluster the key's node and the publishing one may differ, so wait.
    if (this.cluster) await kept;
    await Promise.all([kept, this.commands.publish(this.noticesChannel(), `${name} ${json}`)]);
  }

  /**
   * Registered here first, then (once this process hears the notices' channel) one read of a
   * kept notice: one sent before the read is found by it, one sent after reaches the channel.
   */
  watch<T>(name: string, signal: AbortSignal): Promise<T | null> {
    return watchFor<T>(this.watchers, name, signal, (take) => {
      this.listening
        .then(() => this.commands.get(this.noticeKey(name)))
        .then((kept) => {
          if (kept !== null) take(parseNotice(kept));
        })
        // Redis is away: the watch still hears the channel once it is back.
        .catch(() => {});
    });
  }

  /** A notice from the channel, `name json`: for this process's watchers of that name, if any. */
  private noticed(message: string): void {
    const space = message.indexOf(" ");
    const set = space < 0 ? undefined : this.watchers.get(message.slice(0, space));
    if (!set) return;
    const data = parseNotice(message.slice(space + 1));
    for (const take of [...set]) take(data);
  }

  async ping(): Promise<void> {
    await this.commands.ping();
  }

  async close(): Promise<void> {
    for (const { set } of this.readers.values()) for (const reader of set) reader.wake?.();
    this.readers.clear();
    for (const set of this.watchers.values()) for (const take of [...set]) take(null);
    this.subscriber.disconnect();
    this.commands.disconnect();
  }
}

/** A notice's data; one that is not JSON (not ours) still counts as sent, with no data. */
function parseNotice(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return {};
  }
}
