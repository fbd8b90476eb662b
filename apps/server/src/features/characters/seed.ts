import { characterCreate } from "@hearth/contract";
import { and, eq, isNull } from "drizzle-orm";
import { CliError } from "../../cli/errors.ts";
import type { Db } from "../../db/client.ts";
import { ensureSystemAccount, type Viewer } from "../accounts/index.ts";
import { monogramPng } from "./monogram.ts";
import { characters } from "./schema.ts";
import { SEED_CHARACTERS } from "./seed-data.ts";
import type { CharacterService } from "./service.ts";

export const SYSTEM_USERNAME = "hearth";
const SYSTEM_EMAIL = "hearth@system.hearth.invalid";

/** The account that owns the demo characters. It has no password, so nobody signs in as it. */
export async function ensureSystemUser(db: Db): Promise<Viewer> {
  const found = await ensureSystemAccount(db, {
    username: SYSTEM_USERNAME,
    email: SYSTEM_EMAIL,
    name: "Hearth",
  });
  if ("takenBy" in found) {
    throw new CliError(
      `The username "${SYSTEM_USERNAME}" belongs to ${found.takenBy}, not to Hearth's system account; rename that account first.`,
    );
  }
  return found.viewer;
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
    await service.setAvatar(owner, row, await monogramPng(seed.name, seed.color));
    created.push(seed.name);
  }
  return created;
}
