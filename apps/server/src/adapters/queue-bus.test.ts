import { randomBytes } from "node:crypto";
import { type Cluster, Redis } from "ioredis";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEST_REDIS_URL } from "../../test/databases.ts";
import { type RedisKind, redisKinds, testRedisCluster } from "../../test/redis-cluster.ts";
import type { BusEvent, EventBus } from "../ports/bus.ts";
import type { JobQueue } from "../ports/queue.ts";
import { BullJobQueue } from "./bullmq-queue.ts";
import { MemoryEventBus } from "./memory-bus.ts";
import { MemoryJobQueue } from "./memory-queue.ts";
import { compareIds, RedisEventBus } from "./redis-bus.ts";
import { connectRedis, type RedisTarget, slotTag } from "./redis-connect.ts";

const prefix = () => `hearth-test-${randomBytes(4).toString("hex")}`;
/** A Redis Cluster of three nodes (HEARTH_REDIS_CLUSTER installs), started for this process. */
const cluster = await testRedisCluster();
const redisTargets: Record<RedisKind, RedisTarget> = {
  "a Redis server": await redisKinds["a Redis server"](),
  "a Redis Cluster": cluster,
};
const queues: Record<string, () => JobQueue> = {
  "in-process": () => new MemoryJobQueue(),
  redis: () => new BullJobQueue(TEST_REDIS_URL, prefix()),
  "redis-cluster": () => new BullJobQueue(cluster, prefix()),
};
const buses: Record<string, () => EventBus> = {
  "in-process": () => new MemoryEventBus(),
  redis: () => new RedisEventBus(TEST_REDIS_URL, prefix()),
  "redis-cluster": () => new RedisEventBus(cluster, prefix()),
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Reads until `count` events arrived, then ends the read. */
async function collect<T>(iter: AsyncIterable<BusEvent<T>>, count: number, controller: AbortController) {
  const out: BusEvent<T>[] = [];
  for await (const e of iter) {
    out.push(e);
    if (out.length === count) controller.abort();
  }
  return out;
}

describe.each(Object.keys(queues))("JobQueue (%s)", (kind) => {
  const make = () => {
    const q = (queues[kind] as () => JobQueue)();
    open.push(q);
    return q;
  };

  it("runs enqueued jobs with their data", async () => {
    const q = make();
    const seen: number[] = [];
    const done = deferred();
    q.process<{ n: number }>("work", async ({ n }) => {
      seen.push(n);
      if (seen.length === 3) done.resolve();
    });
    for (const n of [1, 2, 3]) await q.enqueue("work", { n });
    await done.promise;
    expect(seen).toEqual([1, 2, 3]);
    await q.ping();
  });

  it("does not add a job twice under the same id", async () => {
    const q = make();
    await q.enqueue("later", { a: 1 }, { jobId: "same" });
    await q.enqueue("later", { a: 2 }, { jobId: "same" });
    await q.enqueue("later", { a: 3 });
    // A last job: jobs run in order one at a time, so once it has run every earlier one has.
    await q.enqueue("later", { a: 4 });
    const seen: number[] = [];
    const done = deferred();
    q.process<{ a: number }>("later", async ({ a }) => {
      seen.push(a);
      if (a === 4) done.resolve();
    });
    await done.promise;
    expect(seen).toEqual([1, 3, 4]);
  });

  it("runs a lower priority value first", async () => {
    const q = make();
    await q.enqueue("p", { name: "slow" }, { priority: 10 });
    await q.enqueue("p", { name: "fast" }, { priority: 1 });
    const order: string[] = [];
    const done = deferred();
    q.process<{ name: string }>("p", async ({ name }) => {
      order.push(name);
      if (order.length === 2) done.resolve();
    });
    await done.promise;
    expect(order).toEqual(["fast", "slow"]);
  });

  it("retries a failing job up to its attempts", async () => {
    const q = make();
    const attempts: number[] = [];
    const done = deferred();
    q.process("flaky", async (_data, job) => {
      attempts.push(job.attempt);
      if (job.attempt < 2) throw new Error("first try fails");
      done.resolve();
    });
    await q.enqueue("flaky", {}, { attempts: 2 });
    await done.promise;
    expect(attempts).toEqual([1, 2]);
  });

  it("a paused process takes no more jobs of that name, and still runs its other jobs", async () => {
    const q = make();
    const paused: string[] = [];
    q.process<{ n: string }>("wake", async ({ n }) => {
      paused.push(n);
    });
    await q.pause("wake");
    const other = deferred();
    q.process("other", async () => other.resolve());
    await q.enqueue("wake", { n: "after the pause" });
    await q.enqueue("other", {});
    // The other lane ran a job enqueued after the paused one: the paused one had its chance.
    await other.promise;
    expect(paused).toEqual([]);
  });

  it("close waits for a running job to finish, and starts no waiting one", async () => {
    const q = (queues[kind] as () => JobQueue)();
    const started = deferred();
    const release = deferred();
    const ran: string[] = [];
    q.process<{ n: string }>("long", async ({ n }) => {
      ran.push(n);
      started.resolve();
      await release.promise;
      ran.push(`${n} done`);
    });
    await q.enqueue("long", { n: "first" });
    await q.enqueue("long", { n: "second" });
    await started.promise;
    let closed = false;
    const closing = q.close().then(() => {
      closed = true;
    });
    // Turns pass while the job runs: close is still waiting for it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release.resolve();
    await closing;
    expect(ran).toEqual(["first", "first done"]);
  });
});

describe("MemoryJobQueue's close", () => {
  it("stops waiting for a hung job after its bound", async () => {
    const q = new MemoryJobQueue(20);
    const started = deferred();
    q.process("hung", async () => {
      started.resolve();
      await new Promise(() => {});
    });
    await q.enqueue("hung", {});
    await started.promise;
    await expect(q.close()).resolves.toBeUndefined();
  });
});

describe.each(Object.keys(redisTargets))("BullJobQueue across processes (%s)", (kind) => {
  it("a job enqueued while one process is paused (draining) goes to another process", async () => {
    const shared = prefix();
    const target = redisTargets[kind as RedisKind];
    const draining = new BullJobQueue(target, shared);
    const serving = new BullJobQueue(target, shared);
    open.push(draining, serving);
    const takenBy: string[] = [];
    const taken = deferred();
    draining.process("wake", async () => {
      takenBy.push("draining");
      taken.resolve();
    });
    await draining.pause("wake");
    serving.process("wake", async () => {
      takenBy.push("serving");
      taken.resolve();
    });
    await draining.enqueue("wake", { wake: true });
    await taken.promise;
    expect(takenBy).toEqual(["serving"]);
  });
});

describe.each(Object.keys(buses))("EventBus (%s)", (kind) => {
  const make = () => {
    const b = (buses[kind] as () => EventBus)();
    open.push(b);
    return b;
  };

  it("delivers live events to a reader and replays kept ones", async () => {
    const bus = make();
    const first = await bus.append("s", { t: "a" });
    const live = new AbortController();
    const reading = collect<{ t: string }>(bus.read("s", "0", live.signal), 3, live);
    await bus.append("s", { t: "b" });
    await bus.append("s", { t: "c" });
    expect((await reading).map((e) => e.data.t)).toEqual(["a", "b", "c"]);

    // A reader that reconnects after the first event resumes from its id without loss or repeats.
    const resume = new AbortController();
    const resumed = await collect<{ t: string }>(bus.read("s", first, resume.signal), 2, resume);
    expect(resumed.map((e) => e.data.t)).toEqual(["b", "c"]);
  });

  it("serves several readers of different streams at once", async () => {
    const bus = make();
    const c1 = new AbortController();
    const c2 = new AbortController();
    const r1 = collect<number>(bus.read("one", "0", c1.signal), 2, c1);
    const r2 = collect<number>(bus.read("two", "0", c2.signal), 1, c2);
    await bus.append("one", 1);
    await bus.append("two", 20);
    await bus.append("one", 2);
    expect((await r1).map((e) => e.data)).toEqual([1, 2]);
    expect((await r2).map((e) => e.data)).toEqual([20]);
  });

  it("ends a read when its signal aborts", async () => {
    const bus = make();
    const c = new AbortController();
    const reading = collect(bus.read("quiet", "0", c.signal), 99, c);
    setTimeout(() => c.abort(), 50);
    expect(await reading).toEqual([]);
    await bus.ping();
  });

  it("gives a watch the notice kept from before it began, or the one sent while it waits; an aborted watch ends with null", async () => {
    const bus = make();
    const kept = new AbortController();
    await bus.notify("gen:1:stop", { type: "stop" }, 60);
    expect(await bus.watch("gen:1:stop", kept.signal)).toEqual({ type: "stop" });

    const live = new AbortController();
    const waiting = bus.watch<{ n: number }>("gen:2:stop", live.signal);
    await bus.notify("gen:2:stop", { n: 2 }, 60);
    expect(await waiting).toEqual({ n: 2 });

    // A notice for another name is not this watch's; aborting ends it.
    const quiet = new AbortController();
    const unanswered = bus.watch("gen:3:stop", quiet.signal);
    await bus.notify("gen:4:stop", { n: 4 }, 60);
    quiet.abort();
    expect(await unanswered).toBeNull();
  });
});

describe.each(Object.keys(redisTargets))("RedisEventBus across processes, on %s", (kind) => {
  const pair = () => {
    const shared = prefix();
    const target = redisTargets[kind as RedisKind];
    const here = new RedisEventBus(target, shared);
    const there = new RedisEventBus(target, shared);
    open.push(here, there);
    return { here, there, shared };
  };

  it("keeps the order of events appended by two processes to one stream, for readers in both", async () => {
    const { here, there } = pair();
    await here.append("g", 0);
    const ch = new AbortController();
    const ct = new AbortController();
    const readHere = collect<number>(here.read("g", "0", ch.signal), 41, ch);
    const readThere = collect<number>(there.read("g", "0", ct.signal), 41, ct);
    // Appends alternate between the processes, several in flight at once: each reader must take
    // every event once, in the stream's order, whichever way it came (memory, channel or stream).
    for (let i = 1; i <= 40; i += 4) {
      await Promise.all([
        here.append("g", i),
        there.append("g", i + 1),
        here.append("g", i + 2),
        there.append("g", i + 3),
      ]);
    }
    const kept = (await here.range<number>("g")).map((e) => e.id);
    for (const got of [await readHere, await readThere]) {
      expect(got.map((e) => e.id)).toEqual(kept);
      expect(new Set(got.map((e) => e.data)).size).toBe(41);
    }
  });

  it("resumes a reader of another process from the id its client last saw", async () => {
    const { here, there } = pair();
    const ids = [await here.append("r", "a"), await here.append("r", "b")];
    const c = new AbortController();
    const reading = collect<string>(there.read("r", ids[0] as string, c.signal), 2, c);
    await here.append("r", "c");
    expect((await reading).map((e) => e.data)).toEqual(["b", "c"]);
  });

  it("tells a notice kept before a watch began, and one sent while it waits, to another process", async () => {
    const { here, there } = pair();
    await here.notify("gen:a:stop", { type: "stop" }, 60);
    expect(await there.watch("gen:a:stop", new AbortController().signal)).toEqual({ type: "stop" });
    const waiting = there.watch("gen:b:stop", new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    await here.notify("gen:b:stop", { type: "stop", n: 2 }, 60);
    expect(await waiting).toEqual({ type: "stop", n: 2 });
  });

  it("streams one turn's appends to many streams, each in order, to readers here and there", async () => {
    const { here, there } = pair();
    const streams = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const readers = streams.map((s, i) => {
      const bus = i % 2 === 0 ? here : there;
      const c = new AbortController();
      return collect<number>(bus.read(s, "0", c.signal), 3, c);
    });
    // Three events to each stream, all in one turn of the event loop.
    await Promise.all(streams.map((s) => Promise.all([1, 2, 3].map((n) => here.append(s, n)))));
    for (const got of await Promise.all(readers)) expect(got.map((e) => e.data)).toEqual([1, 2, 3]);
    for (const s of streams) expect((await there.range<number>(s)).map((e) => e.data)).toEqual([1, 2, 3]);
  });
});

describe("RedisEventBus on a Redis Cluster", () => {
  it("keeps a stream with its reader set in one slot, spreads streams over the nodes, and sends a turn's appends in one call per slot", async () => {
    const shared = prefix();
    const here = new RedisEventBus(cluster, shared);
    const there = new RedisEventBus(cluster, shared);
    open.push(here, there);
    const raw = connectRedis(cluster) as Cluster;
    // Connected, the client knows the nodes.
    await raw.ping();
    // Both buses subscribe before any MONITOR starts: a monitor that starts while another
    // connection's SUBSCRIBE is on its way can take that line for its own reply (ioredis then
    // fails with "Command queue state error"), which a loaded machine made happen.
    await Promise.all(
      [here, there].map((bus) => (bus as unknown as { listening: Promise<unknown> }).listening),
    );
    const masters = raw.nodes("master");
    expect(masters).toHaveLength(3);
    // Every node's MONITOR, to count the script calls that reach it.
    const monitors = await Promise.all(
      masters.map((node) => new Redis({ host: node.options.host, port: node.options.port }).monitor()),
    );
    const calls: string[][] = [];
    for (const m of monitors)
      m.on("monitor", (_time: string, args: string[]) => {
        if (/^evalsha$|^eval$/i.test(args[0] ?? "") && args.some((a) => a.startsWith(`${shared}:bus:`)))
          calls.push(args);
      });
    try {
      const streams = Array.from({ length: 24 }, (_, i) => `k${i}`);
      // A reader in the other process of each stream.
      const reading = streams.map((s) => {
        const c = new AbortController();
        return collect<string>(there.read(s, "0", c.signal), 1, c);
      });
      // One append to each stream, in one turn of the event loop.
      await Promise.all(streams.map((s) => here.append(s, s)));
      for (const [i, got] of (await Promise.all(reading)).entries()) expect(got[0]?.data).toBe(streams[i]);
      // One script call per slot group the streams fall in (a script may touch one slot only).
      const groups = new Set(streams.map(slotTag));
      await vi.waitFor(() => expect(calls).toHaveLength(groups.size));
      expect(groups.size).toBeGreaterThan(4);
      // Each stream's key and its reader set's hash to one slot; the streams use many slots, on
      // more than one node.
      const slots = new Set<number>();
      const nodes = new Set<string>();
      for (const node of masters) {
        for (const key of await node.keys(`${shared}:bus:*`)) {
          if (key.endsWith(":readers")) continue;
          const slot = Number(await node.cluster("KEYSLOT", key));
          expect(Number(await node.cluster("KEYSLOT", `${key}:readers`))).toBe(slot);
          slots.add(slot);
          nodes.add(`${node.options.host}:${node.options.port}`);
        }
      }
      expect(slots.size).toBeGreaterThan(4);
      expect(nodes.size).toBeGreaterThan(1);
    } finally {
      for (const m of monitors) m.disconnect();
      raw.disconnect();
    }
  });
});

describe("RedisEventBus across processes", () => {
  const pair = () => {
    const shared = prefix();
    const here = new RedisEventBus(TEST_REDIS_URL, shared);
    const there = new RedisEventBus(TEST_REDIS_URL, shared);
    open.push(here, there);
    return { here, there, shared };
  };

  it("tells a notice to another process's watch on the channel, and keeps it for a watch there that begins later", async () => {
    const { here, there, shared } = pair();
    // Kept: sent here before the watch there began.
    await here.notify("gen:a:stop", { type: "stop" }, 60);
    expect(await there.watch("gen:a:stop", new AbortController().signal)).toEqual({ type: "stop" });
    // Live: published with no kept copy, so only the channel can bring it (the watch is in place
    // and its one read has been answered before it is sent: that read and the ping share a connection).
    const waiting = there.watch("gen:b:stop", new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    await there.ping();
    const raw = new Redis(TEST_REDIS_URL);
    try {
      await raw.publish(`${shared}:bus-notices`, `gen:b:stop ${JSON.stringify({ type: "stop" })}`);
      expect(await waiting).toEqual({ type: "stop" });
      // A notice that is not JSON (not Hearth's) neither throws in the listener nor is lost.
      const garbled = there.watch("gen:c:stop", new AbortController().signal);
      await raw.publish(`${shared}:bus-notices`, "gen:c:stop {not json");
      expect(await garbled).toEqual({});
      // A watch joins no reader set: the only key is the notice kept for a late watch.
      expect(await raw.keys(`${shared}:*`)).toEqual([`${shared}:notice:gen:a:stop`]);
    } finally {
      raw.disconnect();
    }
  });

  it("reads the stream for what it missed when an event reaches it without its predecessor", async () => {
    const { here, shared } = pair();
    const c = new AbortController();
    // Until "c", so that a reader that skipped "b" fails here instead of waiting for a third event.
    const reading = (async () => {
      const got: string[] = [];
      for await (const e of here.read<string>("gap", "0", c.signal)) {
        got.push(e.data);
        if (e.data === "c") c.abort();
      }
      return got;
    })();
    await here.append("gap", "a");
    // An append that announced nothing (a message lost on the way): the next one shows the gap.
    const raw = new Redis(TEST_REDIS_URL);
    await raw.xadd(`${shared}:bus:gap`, "*", "d", JSON.stringify("b"));
    raw.disconnect();
    await here.append("gap", "c");
    expect(await reading).toEqual(["a", "b", "c"]);
  });

  it("listens on one channel per process, sends each event only to other processes with a reader, and leaves no reader behind", async () => {
    const { here, there, shared } = pair();
    const raw = new Redis(TEST_REDIS_URL);
    const watcher = new Redis(TEST_REDIS_URL);
    const published: string[] = [];
    watcher.on("pmessage", (_pattern: string, channel: string) => published.push(channel));
    await watcher.psubscribe(`${shared}:bus-to:*`);
    try {
      // Readers of three streams in the appending process: nothing goes to any channel.
      const local = ["s1", "s2", "s3"].map((s) => {
        const c = new AbortController();
        return collect<number>(here.read(s, "0", c.signal), 2, c);
      });
      for (const s of ["s1", "s2", "s3"]) {
        await here.append(s, 1);
        await here.append(s, 2);
      }
      for (const got of await Promise.all(local)) expect(got.map((e) => e.data)).toEqual([1, 2]);
      // A channel of each process's own, and the one every process hears notices on.
      const channels = (await raw.pubsub("CHANNELS", `${shared}:*`)) as string[];
      expect(channels.filter((c) => c.startsWith(`${shared}:bus-to:`))).toHaveLength(2);
      expect(channels.filter((c) => !c.startsWith(`${shared}:bus-to:`))).toEqual([`${shared}:bus-notices`]);
      // A reader in the other process (registered once it has read the kept events): each later
      // event goes to its process's channel, once.
      const ct = new AbortController();
      const remote: number[] = [];
      for await (const e of there.read<number>("s1", "0", ct.signal)) {
        remote.push(e.data);
        if (e.data === 2) {
          await here.append("s1", 3);
          await here.append("s1", 4);
        }
        if (e.data === 4) ct.abort();
      }
      expect(remote).toEqual([1, 2, 3, 4]);
      // Its reply comes after every message published before it on this connection.
      await watcher.ping();
      expect(published).toHaveLength(2);
      expect(new Set(published).size).toBe(1);
      // Every read has ended: both processes left the stream's reader set.
      expect(await raw.smembers(`${shared}:bus:s1:readers`)).toEqual([]);
    } finally {
      watcher.disconnect();
      raw.disconnect();
    }
  });

  it("sends one turn's appends to many streams in one script call, each in order, to readers here and there", async () => {
    const { here, there, shared } = pair();
    const streams = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const readers = streams.map((s, i) => {
      const bus = i % 2 === 0 ? here : there;
      const c = new AbortController();
      return collect<number>(bus.read(s, "0", c.signal), 3, c);
    });
    // Let every reader join its stream's reader set before the appends.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const monitor = await new Redis(TEST_REDIS_URL).monitor();
    const calls: string[][] = [];
    let lastRange = false;
    monitor.on("monitor", (_time: string, args: string[]) => {
      if (/^eval/i.test(args[0] ?? "") && args.some((a) => a.startsWith(`${shared}:bus:t`))) calls.push(args);
      if (/^xrange$/i.test(args[0] ?? "") && args[1] === `${shared}:bus:t29`) lastRange = true;
    });
    try {
      // Three events to each of 30 streams, all in one turn of the event loop.
      const ids = await Promise.all(streams.map((s) => Promise.all([1, 2, 3].map((n) => here.append(s, n)))));
      for (const [a, b, c] of ids)
        expect([compareIds(b as string, a as string), compareIds(c as string, b as string)]).toEqual([1, 1]);
      for (const got of await Promise.all(readers)) expect(got.map((e) => e.data)).toEqual([1, 2, 3]);
      for (const s of streams) expect((await there.range<number>(s)).map((e) => e.data)).toEqual([1, 2, 3]);
      // The monitor shows commands in the order Redis ran them: once it shows the last range, it
      // has shown every append before it.
      await vi.waitFor(() => expect(lastRange).toBe(true));
      expect(calls).toHaveLength(1);
      // The number of keys, then a stream and its reader set per event.
      expect(calls[0]?.[2]).toBe("180");
    } finally {
      monitor.disconnect();
    }
  });

  it("sends a reader's first read of the stream with its registration, without waiting for the answer", async () => {
    const { here, there } = pair();
    await there.append("one-trip", "a");
    // Each command as the bus sends it, with how many of its commands had been answered by then.
    const commands = (here as unknown as { commands: Redis }).commands;
    const send = commands.sendCommand.bind(commands);
    const sent: string[] = [];
    let answered = 0;
    commands.sendCommand = ((command: { name: string; promise: Promise<unknown> }, ...rest: never[]) => {
      sent.push(`${command.name} after ${answered} answers`);
      command.promise.then(
        () => answered++,
        () => answered++,
      );
      return send(command as never, ...rest);
    }) as typeof commands.sendCommand;
    const c = new AbortController();
    const reading = collect<string>(here.read("one-trip", "0", c.signal), 2, c);
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    // Joining the reader set and reading what it holds leave together: one round trip, not two.
    expect(sent).toEqual(["sadd after 0 answers", "expire after 0 answers", "xrange after 0 answers"]);
    await there.append("one-trip", "b");
    expect((await reading).map((e) => e.data)).toEqual(["a", "b"]);
  });

  it("orders stream ids by time, then sequence", () => {
    expect(compareIds("5-1", "5-0")).toBe(1);
    expect(compareIds("4-9", "5-0")).toBe(-1);
    expect(compareIds("10-0", "9-99")).toBe(1);
    expect(compareIds("7", "7-0")).toBe(0);
    expect(compareIds("0", "1-0")).toBe(-1);
    expect(compareIds("nonsense", "0")).toBe(0);
  });
});
