import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Character, ConversationCreated, Health, MessagePage } from "@hearth/contract";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_POSTGRES_URL } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { startTestS3, type TestS3 } from "../../../test/s3-server.ts";
import { api, type Person, personAs, testImage } from "../characters/test-support.ts";
import { appendMessage } from "../chats/queries.ts";
import { hearthCli } from "./test-support.ts";

/**
 * Backup and restore round trips on both databases, files included: an install is populated
 * (accounts, characters with avatars, chats with messages, an operator's page), backed up with
 * `hearth backup`, wiped, brought back with `hearth restore`, and started again: everything is
 * served as it was, and the old session cookie still opens it (the secret came back too).
 * Embedded: local files, backed up while the install is stopped. PostgreSQL: files on S3,
 * backed up while the install runs and writes.
 */

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Populated {
  creator: Person;
  member: Person;
  character: Character;
  avatar: Buffer;
  conversationId: string;
  messages: string[];
  page: string;
  /** Stored files (the avatar's sizes). */
  files: number;
}

/** Accounts, a character with an avatar, a chat with messages, an operator's page. */
async function populate(h: TestHearth, dataDir: string): Promise<Populated> {
  const a = api(h);
  const creator = await personAs(h, "free", "Creator");
  const member = await personAs(h, "premium", "Member");
  const created = await a.create(creator, { name: "Mira", visibility: "public" });
  const upload = await a.upload(
    `/api/characters/${created.id}/avatar`,
    creator,
    await testImage("png", 200, 200),
  );
  expect(upload.statusCode, upload.body).toBe(200);
  const character = upload.json<Character>();
  expect(character.avatar_url).toMatch(/^\/api\/files\/avatars\//);
  const avatar = (await h.app.inject({ method: "GET", url: character.avatar_url as string })).rawPayload;
  const opened = await a.post("/api/conversations", { character_id: character.id }, member);
  expect(opened.statusCode, opened.body).toBe(201);
  const conversationId = opened.json<ConversationCreated>().conversation.id;
  for (let i = 0; i < 5; i++) {
    await appendMessage(h.database.db, {
      conversationId,
      role: i % 2 ? "bot" : "user",
      content: `Message ${i} of a story that must survive`,
    });
  }
  const page = `# About this Hearth ${randomBytes(4).toString("hex")}\n`;
  mkdirSync(path.join(dataDir, "pages"), { recursive: true });
  writeFileSync(path.join(dataDir, "pages", "contribute.md"), page);
  const messages = await messagesOf(h, member, conversationId);
  expect(messages).toHaveLength(5);
  let files = 0;
  for await (const _ of h.storage.list()) files++;
  expect(files).toBeGreaterThanOrEqual(2);
  return { creator, member, character, avatar, conversationId, messages, page, files };
}

/** Every message of the chat, oldest first (pages come newest first). */
async function messagesOf(h: TestHearth, who: Person, conversationId: string): Promise<string[]> {
  const all: string[] = [];
  let before = "";
  for (;;) {
    const res = await api(h).get(
      `/api/conversations/${conversationId}/messages?limit=100${before ? `&before=${before}` : ""}`,
      who,
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<MessagePage>();
    all.unshift(...page.messages.map((m) => m.content));
    if (!page.has_more || !page.messages[0]) return all;
    before = page.messages[0].id;
  }
}

/** The restored install serves everything as it was. */
async function expectServed(h: TestHearth, before: Populated) {
  const a = api(h);
  // The same session cookie: the session row and the secret that signs it are both back.
  const me = await a.get("/api/me", before.member);
  expect(me.statusCode, me.body).toBe(200);
  expect(await messagesOf(h, before.member, before.conversationId)).toEqual(before.messages);
  const character = await a.get(`/api/characters/${before.character.id}`, before.creator);
  expect(character.statusCode, character.body).toBe(200);
  expect(character.json<Character>().avatar_url).toBe(before.character.avatar_url);
  const avatar = await h.app.inject({ method: "GET", url: before.character.avatar_url as string });
  expect(avatar.statusCode).toBe(200);
  expect(Buffer.compare(avatar.rawPayload, before.avatar)).toBe(0);
  const page = await a.get("/api/pages/contribute");
  expect(page.json<{ markdown: string }>().markdown).toBe(before.page);
}

describe("backup and restore round trips", () => {
  it("embedded database and local files: back up, wipe, restore, start, serve", async () => {
    const dataDir = tempDir("hearth-roundtrip-");
    const env = { HEARTH_DATA_DIR: dataDir };
    const first = await startTestHearth({ install: { dataDir } });
    const before = await populate(first, dataDir);
    await first.stop();

    const out = path.join(tempDir("hearth-out-"), "install.tar.gz");
    const backup = await hearthCli(env, "backup", "--out", out);
    expect(backup.stderr).toBe("");
    expect(backup.stdout).toContain(`Backup written to ${out}`);
    expect(backup.stdout).toContain(`the database and ${before.files} stored files`);
    expect(backup.stdout).toContain("Hearth is not running");

    // Wiped: the database, the files, the secret and the page.
    for (const entry of ["db", "files", "secret", "pages"])
      rmSync(path.join(dataDir, entry), { recursive: true });

    const restore = await hearthCli(env, "restore", out);
    expect(restore.stderr).toBe("");
    expect(restore.stdout).toContain(`its database and ${before.files} stored files`);
    expect(existsSync(path.join(dataDir, "db", "PG_VERSION"))).toBe(true);
    expect(readdirSync(dataDir).filter((n) => n.startsWith(".restore-"))).toEqual([]);

    const again = await startTestHearth({ install: { dataDir } });
    try {
      await expectServed(again, before);
    } finally {
      await again.stop();
    }
  }, 240_000);

  it("a restore keeps the data it replaces aside", async () => {
    const dataDir = tempDir("hearth-aside-");
    const env = { HEARTH_DATA_DIR: dataDir };
    const first = await startTestHearth({ install: { dataDir } });
    const before = await populate(first, dataDir);
    await first.stop();
    const out = path.join(dataDir, "backups", "kept.tar.gz");
    expect((await hearthCli(env, "backup", "--out", out)).code).toBe(0);

    // Written after the backup: not in it, but kept aside by the restore.
    const later = await startTestHearth({ install: { dataDir } });
    await appendMessage(later.database.db, {
      conversationId: before.conversationId,
      role: "user",
      content: "written after the backup",
    });
    await later.stop();

    const restore = await hearthCli(env, "restore", out);
    const aside = /kept in (\S+);/.exec(restore.stdout)?.[1] ?? "";
    expect(aside).toContain(path.join(dataDir, "before-restore-"));
    expect(readdirSync(aside).sort()).toEqual(["db", "files", "pages", "secret"]);

    const restored = await startTestHearth({ install: { dataDir } });
    try {
      expect(await messagesOf(restored, before.member, before.conversationId)).toEqual(before.messages);
    } finally {
      await restored.stop();
    }
    // The data it replaced still opens, with the later message.
    const kept = await startTestHearth({ install: { dataDir: aside } });
    try {
      expect(await messagesOf(kept, before.member, before.conversationId)).toContain(
        "written after the backup",
      );
    } finally {
      await kept.stop();
    }
  }, 240_000);

  it("PostgreSQL and files on S3: backed up while it runs and writes, wiped, restored, served", async () => {
    const name = `hearth_backup_${randomBytes(5).toString("hex")}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    let s3: TestS3 | null = null;
    try {
      s3 = await startTestS3(`hearth-backup-${randomBytes(3).toString("hex")}`);
      const dataDir = tempDir("hearth-roundtrip-pg-");
      const env = { HEARTH_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...s3.env };
      const first = await startTestHearth({ install: { dataDir, databaseUrl }, env: s3.env });
      const before = await populate(first, dataDir);

      // Writes go on while the backup runs: each one is whole in the backup or not in it.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await appendMessage(first.database.db, {
            conversationId: before.conversationId,
            role: "user",
            content: `During the backup ${written}`,
          });
          written++;
        }
      })();
      const out = path.join(tempDir("hearth-out-"), "pg.tar.gz");
      const backup = await hearthCli(env, "backup", "--out", out);
      writing = false;
      await writer;
      expect(backup.stderr).toBe("");
      expect(backup.stdout).toContain("from PostgreSQL with pg_dump");
      expect(backup.stdout).toContain(`the database and ${before.files} stored files`);
      expect(written).toBeGreaterThan(0);
      const health = await first.app.inject({ method: "GET", url: "/api/health" });
      expect(health.json<Health>().backup.size_bytes).toBeGreaterThan(0);
      await first.stop();

      // Wiped: a fresh database and an empty bucket.
      await adminQuery(`DROP DATABASE ${name} WITH (FORCE)`);
      await adminQuery(`CREATE DATABASE ${name}`);
      for await (const key of first.storage.list()) await first.storage.delete(key);
      rmSync(path.join(dataDir, "pages"), { recursive: true });
      rmSync(path.join(dataDir, "secret"));

      const restore = await hearthCli(env, "restore", out);
      expect(restore.stderr).toBe("");
      expect(restore.stdout).toContain(`its database and ${before.files} stored files`);
      expect(restore.stdout).toContain("The database as it was is kept in");

      const again = await startTestHearth({ install: { dataDir, databaseUrl }, env: s3.env });
      try {
        const restored = await messagesOf(again, before.member, before.conversationId);
        // The backup holds the messages written before it and a prefix of those written while it ran.
        expect(restored.slice(0, before.messages.length)).toEqual(before.messages);
        const during = restored.slice(before.messages.length);
        expect(during).toEqual(during.map((_, i) => `During the backup ${i}`));
        expect(during.length).toBeLessThanOrEqual(written);
        await expectServed(again, { ...before, messages: restored });
      } finally {
        await again.stop();
      }
    } finally {
      await s3?.stop();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }, 240_000);
});
