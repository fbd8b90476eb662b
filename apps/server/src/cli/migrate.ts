import type { Config } from "../config.ts";
import { type Database, databaseTarget, openDatabase } from "../db/client.ts";

/** Opens and migrates the configured database for one CLI command, then closes it. */
export async function withDatabase<T>(config: Config, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(databaseTarget(config));
  try {
    await database.migrate();
    return await fn(database);
  } finally {
    await database.close();
  }
}

export async function migrateCommand(config: Config) {
  await withDatabase(config, async (database) => {
    console.log(`Migrations applied (${database.driver}).`);
  });
}
