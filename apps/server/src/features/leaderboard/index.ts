// What the leaderboard feature offers the rest of the server (issue 11). Its routes install from app.ts.
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";

/** Registers the feature's routes (and any background work; answers a function that stops it). */
export async function installLeaderboard(_app: FastifyInstance, _deps: CommunityDeps): Promise<() => void> {
  return () => {};
}
