import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { Auth } from "./features/accounts/index.ts";
import type { CharacterService } from "./features/characters/index.ts";
import type { EventBus } from "./ports/bus.ts";
import type { JobQueue } from "./ports/queue.ts";
import type { FileStorage } from "./ports/storage.ts";

/** What app.ts hands each community feature (moderation, ratings, blocking, leaderboard, recommendations). */
export interface CommunityDeps {
  config: Config;
  db: Db;
  auth: Auth;
  storage: FileStorage;
  queue: JobQueue;
  bus: EventBus;
  characters: CharacterService;
}
