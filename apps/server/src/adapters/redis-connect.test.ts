import { Cluster, Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { BUS_SLOTS, connectRedis, slotTag } from "./redis-connect.ts";

describe("connectRedis", () => {
  it("opens one server for a plain URL, and a cluster of the named nodes with the first's credentials", () => {
    const one = connectRedis("redis://127.0.0.1:6399", { lazyConnect: true });
    expect(one).toBeInstanceOf(Redis);
    one.disconnect();
    const cluster = connectRedis(
      { url: "redis://ops:s%40cret@10.0.0.1:7000, redis://10.0.0.2", cluster: true },
      { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true },
    ) as Cluster;
    expect(cluster).toBeInstanceOf(Cluster);
    // The nodes it was given, as ioredis keeps them (a private field: no other way to read them).
    expect((cluster as unknown as { startupNodes: unknown }).startupNodes).toEqual([
      { host: "10.0.0.1", port: 7000 },
      { host: "10.0.0.2", port: 6379 },
    ]);
    expect(cluster.options.redisOptions).toMatchObject({
      username: "ops",
      password: "s@cret",
      maxRetriesPerRequest: 2,
    });
    // Never auto-pipelined on a cluster (decision 024).
    expect(cluster.options.enableAutoPipelining).toBe(false);
    cluster.disconnect();
  });
});

describe("slotTag", () => {
  it("gives a name always the same group, one of BUS_SLOTS, and spreads many names over most of them", () => {
    const names = Array.from({ length: 2000 }, (_, i) => `gen:${i.toString(36)}-${(i * 7919).toString(16)}`);
    const tags = names.map(slotTag);
    expect(names.map(slotTag)).toEqual(tags);
    for (const tag of tags) expect(tag).toMatch(/^\{\d+\}$/);
    const groups = new Set(tags.map((tag) => Number(tag.slice(1, -1))));
    expect(Math.max(...groups)).toBeLessThan(BUS_SLOTS);
    expect(groups.size).toBe(BUS_SLOTS);
  });
});
