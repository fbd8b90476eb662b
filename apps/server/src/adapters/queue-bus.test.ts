import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_REDIS_URL } from "../../test/databases.ts";
import type { BusEvent, EventBus } from "../ports/bus.ts";
import type { JobQueue } from "../ports/queue.ts";
import { BullJobQueue } from "./bullmq-queue.ts";
import { MemoryEventBus } from "./memory-bus.ts";
import { MemoryJobQueue } from "./memory-queue.ts";
import { RedisEventBus } from "./redis-bus.ts";

const prefix = () => `hearth-test-${randomBytes(4).toString("hex")}`;
const queues: Record<string, () => JobQueue> = {
  "in-process": () => new MemoryJobQueue(),
  redis: () => new BullJobQueue(TEST_REDIS_URL, prefix()),
};
const buses: Record<string, () => EventBus> = {
  "in-process": () => new MemoryEventBus(),
  redis: () => new RedisEventBus(TEST_REDIS_URL, prefix()),
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
});

describe.each(Object.keys(buses))("EventBus (%s)", (kind) => {
  const make = () => {
    const b = (buses[kind] as () => EventBus)();
    open.push(b);
    return b;
  };

  async function collect<T>(iter: AsyncIterable<BusEvent<T>>, count: number, controller: AbortController) {
    const out: BusEvent<T>[] = [];
    for await (const e of iter) {
      out.push(e);
      if (out.length === count) controller.abort();
    }
    return out;
  }

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
});
