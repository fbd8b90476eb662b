import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { base64, insertChunks, plainPng, textChunk, v2Card } from "./cards/test-helpers.ts";
import { initials } from "./monogram.ts";
import { characters } from "./schema.ts";
import { SEED_CHARACTERS } from "./seed-data.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-cli-characters-"));
const env = { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: "silent", NODE_ENV: "production" };
const hearth = (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 90_000 });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>): Promise<T> {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

// Real Hearth processes each (several per test): slow on a small shared machine, hence the
// longer limits on those tests.
describe("hearth seed and hearth import", () => {
  it("lists both commands in the help", async () => {
    const top = await hearth("--help");
    expect(top.stdout).toContain("import");
    expect(top.stdout).toContain("seed");
    expect((await hearth("import", "--help")).stdout).toContain("--user <user>");
  });

  it("seeds the demo characters once, owned by @hearth, public, approved, with avatars", async () => {
    const first = await hearth("seed");
    expect(first.stdout).toContain(`Created ${SEED_CHARACTERS.length} demo character(s) owned by @hearth`);
    const second = await hearth("seed");
    expect(second.stdout).toContain("already there");
    const rows = await withDb(async (db) => {
      const [owner] = await db.select().from(users).where(eq(users.username, "hearth"));
      return db
        .select()
        .from(characters)
        .where(and(eq(characters.creatorUserId, owner?.id ?? ""), isNull(characters.deletedAt)));
    });
    expect(rows).toHaveLength(SEED_CHARACTERS.length);
    for (const row of rows) {
      expect(row).toMatchObject({
        visibility: "public",
        moderationStatus: "approved",
        definitionVisible: true,
      });
      expect(row.avatarKey).not.toBeNull();
      expect(row.tags.length).toBeGreaterThanOrEqual(3);
      expect(row.greeting).toContain("{{user}}");
      expect(row.dialogue).toContain("{{char}}:");
      expect(row.tokenCount).toBeGreaterThan(0);
    }
  }, 240_000);

  it("imports card files for a user and explains what it could not import", async () => {
    const card = path.join(dataDir, "mira.png");
    writeFileSync(card, insertChunks(await plainPng(32, 32), [textChunk("chara", base64(v2Card()))]));
    const noAdmin = await hearth("import", card).catch((e) => e);
    expect(noAdmin.code).toBe(1);
    expect(noAdmin.stderr).toContain("There is no administrator yet");

    await hearth("user", "create", "--email", "op@example.com", "--username", "operator", "--admin");
    const junk = path.join(dataDir, "junk.json");
    writeFileSync(junk, "{ nope");
    const mixed = await hearth("import", card, junk, path.join(dataDir, "missing.png")).catch((e) => e);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain('imported "Mira Valen"');
    expect(mixed.stdout).toContain("for op@example.com");
    expect(mixed.stderr).toContain("junk.json: not imported");
    expect(mixed.stderr).toContain("missing.png: not imported");
    expect(mixed.stderr).toContain("2 of 3 file(s) could not be imported");

    const forUser = await hearth("import", card, "--user", "hearth");
    expect(forUser.stdout).toContain("for hearth@system.hearth.invalid");
    const unknown = await hearth("import", card, "--user", "nobody").catch((e) => e);
    expect(unknown.stderr).toContain('No user with email or username "nobody"');
  }, 360_000);

  it("monograms take the initials of the first two words", () => {
    expect(initials("Ser Aldric the Unready")).toBe("SA");
    expect(initials("Halcyon")).toBe("H");
    expect(initials("élodie de saint-just")).toBe("ED");
  });
});
