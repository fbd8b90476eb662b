import { Cluster, Redis, type RedisOptions } from "ioredis";

/**
 * Where Hearth's Redis is: one server (`REDIS_URL`), or a Redis Cluster reached through the
 * nodes `REDIS_URL` names (comma-separated; one is enough, the rest are discovered) with
 * `HEARTH_REDIS_CLUSTER=true`. Every adapter opens its connections here, so the two kinds differ
 * in this file and in how keys are grouped into slots (`slotTag`), nowhere else.
 */
export interface RedisTarget {
  url: string;
  cluster: boolean;
}

export type RedisClient = Redis | Cluster;

/** A bare URL is one server, as the tests and older callers give it. */
export const redisTarget = (target: RedisTarget | string): RedisTarget =>
  typeof target === "string" ? { url: target, cluster: false } : target;

/** Opens a client of the target with these per-connection options (auto-pipelining is set for the whole client). */
export function connectRedis(
  target: RedisTarget | string,
  options: RedisOptions & { enableAutoPipelining?: boolean } = {},
): RedisClient {
  const { url, cluster } = redisTarget(target);
  if (!cluster) return new Redis(url, options);
  // No auto-pipelining on a cluster: ioredis routes an auto-pipelined script call by its first
  // argument, the key count, not by its first key (ioredis#2109), and its pipelines per node
  // would reorder the commands of one turn that the bus sends in order. Each command goes as it
  // is called; the bus batches its hot path (a turn's appends, one call per slot) itself.
  const { enableAutoPipelining: _perNode, enableOfflineQueue, lazyConnect, ...redisOptions } = options;
  const nodes = url.split(",").map((one) => new URL(one.trim()));
  const seeds = nodes.map((node) => ({ host: node.hostname, port: Number(node.port || 6379) }));
  // Credentials and TLS as the first node's URL gives them: every node of a cluster shares them.
  const first = nodes[0] as URL;
  return new Cluster(seeds, {
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    redisOptions: {
      ...redisOptions,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === "rediss:" ? { tls: {} } : {}),
    },
  });
}

/**
 * How many slots the bus spreads its streams over on a cluster: a turn's appends go in one
 * script call per slot (a script may only touch keys of one slot), so a few dozen calls a turn
 * at most, while the streams still spread over every node of a cluster of up to this many.
 */
export const BUS_SLOTS = 64;

/**
 * The hash tag that puts a stream's keys in its slot group on a cluster (`{12}`): a stream and
 * its reader set share a slot, and streams are spread over BUS_SLOTS slots by their name.
 */
export function slotTag(name: string): string {
  // FNV-1a: cheap, and even enough over stream names (generation ids).
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `{${(hash >>> 0) % BUS_SLOTS}}`;
}
