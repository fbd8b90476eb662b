import { connectRedis, type RedisClient, type RedisTarget } from "./redis-connect.ts";

/**
 * A plain Redis client for state every process must share (the API rate limit's counters).
 * It gives up on a command fast, so a Redis hiccup skips a count rather than holding a request.
 */
export function openSharedRedis(target: RedisTarget | string): {
  client: RedisClient;
  close(): Promise<void>;
} {
  const client = connectRedis(target, {
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
  });
  // Errors surface on the commands that fail; the connection event itself is only noise.
  client.on("error", () => {});
  return {
    client,
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
