// What the leaderboard feature offers the rest of the server (issue 11): the creators
// leaderboard, computed by a scheduled job into leaderboard_entries. Its routes install from app.ts.
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import { LEADERBOARD_INTERVAL_MS, runLeaderboardJob } from "./job.ts";
import { LeaderboardCache, leaderboardRoutes } from "./routes.ts";

export { computeMonth, runLeaderboardJob } from "./job.ts";

/**
 * Registers the route and the scheduled job: a run at start, then every 10 minutes. Runs never
 * overlap in this process; several processes may run it at once (writes take an advisory lock
 * per month and category, and a run only replaces tables). Answers a function that stops it.
 */
export async function installLeaderboard(app: FastifyInstance, deps: CommunityDeps): Promise<() => void> {
  const cache = new LeaderboardCache();
  await app.register(leaderboardRoutes, { db: deps.db, cache });
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = runLeaderboardJob(deps.db)
      .then(() => cache.clear())
      .catch((err) => app.log.error({ err }, "leaderboard job failed"))
      .finally(() => {
        running = null;
      });
  };
  // After the server is ready, so a slow first computation never holds up the start.
  app.addHook("onReady", async () => {
    run();
  });
  const timer = setInterval(run, LEADERBOARD_INTERVAL_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
