import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { asc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { repoRoot } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { conversations, messages } from "../chats/schema.ts";
import { stChat } from "./test-support.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-cli-chat-import-"));
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

describe("hearth import-chat", () => {
  it("imports a SillyTavern chat for a member and says what it kept, or why it could not", async () => {
    expect((await hearth("import-chat", "--help")).stdout).toContain("--character <id>");
    await hearth("user", "create", "--email", "alice@example.com", "--username", "alice", "--name", "Alice");
    const characterId = await withDb(async (db) => {
      const [alice] = await db.select().from(users).where(eq(users.username, "alice"));
      return (await insertTestCharacter(db, alice?.id as string)).id;
    });
    const file = path.join(dataDir, "Mira - 2024-05-01@20h00m00s.jsonl");
    writeFileSync(file, stChat("Alex"));

    const done = await hearth("import-chat", file, "--character", characterId, "--user", "alice@example.com");
    expect(done.stdout).toContain("Imported 3 message(s) and 3 alternative(s) (sillytavern)");
    expect(done.stdout).toContain('"Alex" is now your persona "Alice"');
    expect(done.stdout).toContain("skipped: 1 system message(s)");
    expect(done.stdout).toContain("not kept: chat_metadata.note_prompt");
    const stored = await withDb(async (db) => {
      const [conversation] = await db
        .select()
        .from(conversations)
        .where(eq(conversations.characterId, characterId));
      const rows = await db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversation?.id as string))
        .orderBy(asc(messages.seq));
      return { conversation, rows };
    });
    expect(stored.conversation?.messageCount).toBe(3);
    expect(stored.rows.map((r) => [r.content, r.alternativeIndex, r.alternatives.length])).toEqual([
      ["Welcome back, Alice.", 1, 2],
      ["Hi Mira, it's Alice. Call me Alice!", 0, 1],
      ["Third try, <b>bold</b>", 2, 3],
    ]);

    const junk = path.join(dataDir, "junk.jsonl");
    writeFileSync(junk, '{"user_name":"A"}\n{nope');
    const refused = await hearth("import-chat", junk, "--character", characterId, "--user", "alice").catch(
      (e) => e,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("junk.jsonl: not imported: Line 2 is not valid JSON");
    const nobody = await hearth("import-chat", file, "--character", characterId, "--user", "nobody").catch(
      (e) => e,
    );
    expect(nobody.stderr).toContain('No user with email or username "nobody"');
    const badId = await hearth("import-chat", file, "--character", "mira", "--user", "alice").catch((e) => e);
    expect(badId.stderr).toContain('"mira" is not a character id');
    const missing = await hearth(
      "import-chat",
      path.join(dataDir, "missing.jsonl"),
      "--character",
      characterId,
      "--user",
      "alice",
    ).catch((e) => e);
    expect(missing.stderr).toContain("missing.jsonl");
  }, 360_000);
});
