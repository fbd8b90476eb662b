// What a token costs on the bus's read path alone: one stream per reader, an append and its
// read in turn, as a reply's tokens go. CPU per event, in-process bus (and Redis with
// HEARTH_BENCH_BUS=redis, or a three-node Redis Cluster of the tests' with redis-cluster).
// Run: npx tsx bench/bus-read.ts
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { MemoryEventBus } from "../apps/server/src/adapters/memory-bus.ts";
import { RedisEventBus } from "../apps/server/src/adapters/redis-bus.ts";
import type { EventBus } from "../apps/server/src/ports/bus.ts";
import { TEST_REDIS_URL } from "../apps/server/test/databases.ts";
import { testRedisCluster } from "../apps/server/test/redis-cluster.ts";

const STREAMS = Number(process.env.HEARTH_BENCH_STREAMS ?? 200);
const EVENTS = Number(process.env.HEARTH_BENCH_EVENTS ?? 200);
const benchPrefix = `hearth-bench-${randomBytes(4).toString("hex")}`;
const bus: EventBus =
  process.env.HEARTH_BENCH_BUS === "redis"
    ? new RedisEventBus(TEST_REDIS_URL, benchPrefix)
    : process.env.HEARTH_BENCH_BUS === "redis-cluster"
      ? new RedisEventBus(await testRedisCluster(), benchPrefix)
      : new MemoryEventBus();

for (let round = 0; round < 5; round++) {
  const stop = new AbortController();
  const names = Array.from({ length: STREAMS }, (_, i) => `r${round}-${i}`);
  // One signal for all the readers, as one shutdown ends them all.
  setMaxListeners(0, stop.signal);
  const reads = names.map(async (name) => {
    let n = 0;
    for await (const _ of bus.read(name, "0", stop.signal)) if (++n === EVENTS) return n;
    return n;
  });
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let e = 0; e < EVENTS; e++) {
    await Promise.all(names.map((name) => bus.append(name, { type: "token", text: "hi " })));
    // A turn for the readers, as tokens arrive on separate turns.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(reads);
  const used = process.cpuUsage(cpu);
  const events = STREAMS * EVENTS;
  console.log(
    `round ${round}: ${events} events, ${(((used.user + used.system) / events) * 1000).toFixed(0)} ns CPU per event, ${(((performance.now() - t0) * 1e6) / events).toFixed(0)} ns wall`,
  );
  stop.abort();
}
await bus.close();
