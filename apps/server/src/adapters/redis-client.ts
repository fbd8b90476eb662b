import { Redis } from "ioredis";

/**
 * A plain Redis client for state every process must share (the API rate limit's counters).
 * It gives up on a command fast, so a Redis hiccup skips a count rather than holding a request.
 */
export function openSharedRedis(url: string): { client: Redis; close(): Promise<void> } {
  const client = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: true });
  // Errors surface on the commands that fail; the connection event itself is only noise.
  client.on("error", () => {});
  return {
    client,
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
