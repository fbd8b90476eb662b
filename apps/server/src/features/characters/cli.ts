import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { characterCreate } from "@hearth/contract";
import { and, asc, eq, isNull } from "drizzle-orm";
import { openFileStorage } from "../../app.ts";
import { CliError } from "../../cli/errors.ts";
import { withDatabase } from "../../cli/migrate.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { findUserByEmailOrUsername } from "../accounts/queries.ts";
import { type UserRow, users } from "../accounts/schema.ts";
import { type Viewer, viewerFromUser } from "../accounts/viewer.ts";
import { loadRegistry } from "../inference/registry.ts";
import { InferenceService } from "../inference/service.ts";
import { parseCard } from "./cards/parse.ts";
import { importCard } from "./import.ts";
import { monogramPng } from "./monogram.ts";
import { characters } from "./schema.ts";
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

const asViewer = (u: UserRow): Viewer => viewerFromUser(u);

async function firstAdmin(db: Db): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.isAdmin, true))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return row ?? null;
}

/** Imports card files for one account (default: the first administrator) and prints each report. */
export async function importCommand(config: Config, files: string[], opts: { user?: string }): Promise<void> {
  let failed = 0;
  await withCharacters(config, async (db, service) => {
    const owner = opts.user ? await findUserByEmailOrUsername(db, opts.user) : await firstAdmin(db);
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
        const { row, report } = await importCard({ service, parseCard }, asViewer(owner), {
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

export const SYSTEM_USERNAME = "hearth";
const SYSTEM_EMAIL = "hearth@system.hearth.invalid";

/** The account that owns the demo characters. It has no password, so nobody signs in as it. */
export async function ensureSystemUser(db: Db): Promise<UserRow> {
  const existing = await findUserByEmailOrUsername(db, SYSTEM_USERNAME);
  if (existing) {
    if (existing.email !== SYSTEM_EMAIL) {
      throw new CliError(
        `The username "${SYSTEM_USERNAME}" belongs to ${existing.email}, not to Hearth's system account; rename that account first.`,
      );
    }
    return existing;
  }
  const [row] = await db
    .insert(users)
    .values({ id: randomUUID(), name: "Hearth", email: SYSTEM_EMAIL, username: SYSTEM_USERNAME })
    .returning();
  if (!row) throw new Error("could not create the system user");
  return row;
}

/** Creates the demo characters that are missing (matched by name); answers the names created. */
export async function seedDemoCharacters(db: Db, service: CharacterService): Promise<string[]> {
  const owner = await ensureSystemUser(db);
  const created: string[] = [];
  for (const seed of SEED_CHARACTERS) {
    const [existing] = await db
      .select({ id: characters.id })
      .from(characters)
      .where(
        and(
          eq(characters.creatorUserId, owner.id),
          eq(characters.name, seed.name),
          isNull(characters.deletedAt),
        ),
      )
      .limit(1);
    if (existing) continue;
    const { color: _color, ...fields } = seed;
    const row = await service.create(
      owner.id,
      characterCreate.parse({ ...fields, visibility: "public", definition_visible: true }),
      { moderationStatus: "approved" },
    );
    await service.setAvatar(asViewer(owner), row, await monogramPng(seed.name, seed.color));
    created.push(seed.name);
  }
  return created;
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
