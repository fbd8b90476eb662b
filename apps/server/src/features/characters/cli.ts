import { readFile } from "node:fs/promises";
import path from "node:path";
import { openFileStorage } from "../../app.ts";
import { CliError } from "../../cli/errors.ts";
import { withDatabase } from "../../cli/migrate.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { findViewerByEmailOrUsername, firstAdministrator } from "../accounts/index.ts";
import { InferenceService, loadRegistry } from "../inference/index.ts";
import { parseCard } from "./cards/parse.ts";
import { importCard } from "./import.ts";
import { SYSTEM_USERNAME, seedDemoCharacters } from "./seed.ts";
import { SEED_CHARACTERS } from "./seed-data.ts";
import { CharacterService } from "./service.ts";
import { modelTokenCounter } from "./tokens.ts";

/** `hearth import` and `hearth seed`: the characters service without the HTTP server. */
async function withCharacters<T>(
  config: Config,
  fn: (db: Db, service: CharacterService) => Promise<T>,
): Promise<T> {
  return withDatabase(config, async ({ db }) => {
    const inference = new InferenceService(config, loadRegistry(config));
    try {
      const service = new CharacterService({
        db,
        storage: openFileStorage(config),
        countTokens: modelTokenCounter(inference),
        reviewPublicBots: config.reviewPublicBots,
      });
      return await fn(db, service);
    } finally {
      await inference.close();
    }
  });
}

/** Imports card files for one account (default: the first administrator) and prints each report. */
export async function importCommand(config: Config, files: string[], opts: { user?: string }): Promise<void> {
  let failed = 0;
  await withCharacters(config, async (db, service) => {
    const owner = opts.user ? await findViewerByEmailOrUsername(db, opts.user) : await firstAdministrator(db);
    if (!owner) {
      throw new CliError(
        opts.user
          ? `No user with email or username "${opts.user}".`
          : "There is no administrator yet: create one with `hearth user create --admin`, or pass --user.",
      );
    }
    for (const file of files) {
      try {
        const data = await readFile(file);
        const { row, report } = await importCard({ service, parseCard }, owner, {
          data,
          filename: path.basename(file),
        });
        console.log(
          `${file}: imported "${row.name}" (id ${row.id}, ${report.format}, private) for ${owner.email}`,
        );
        if (report.imported.length) console.log(`  imported: ${report.imported.join(", ")}`);
        if (report.ignored.length) console.log(`  ignored: ${report.ignored.join(", ")}`);
        for (const warning of report.warnings) console.log(`  warning: ${warning}`);
      } catch (error) {
        failed++;
        const message =
          error instanceof HttpError || (error as NodeJS.ErrnoException).code === "ENOENT"
            ? (error as Error).message
            : String(error);
        console.error(`${file}: not imported: ${message}`);
      }
    }
  });
  if (failed) throw new CliError(`${failed} of ${files.length} file(s) could not be imported.`);
}

export async function seedCommand(config: Config): Promise<void> {
  await withCharacters(config, async (db, service) => {
    const created = await seedDemoCharacters(db, service);
    const kept = SEED_CHARACTERS.length - created.length;
    console.log(
      created.length
        ? `Created ${created.length} demo character(s) owned by @${SYSTEM_USERNAME}: ${created.join(", ")}.`
        : "The demo characters are already there.",
    );
    if (created.length && kept) console.log(`${kept} already existed and were left as they are.`);
  });
}
