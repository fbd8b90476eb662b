import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { AdminBackups, ApiError, Health } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { LocalFileStorage } from "../../adapters/local-storage.ts";
import { updateUser } from "../accounts/queries.ts";
import { BACKUP_NAME } from "./backup.ts";
import { verifyBackup } from "./restore.ts";
import { advisoryLeader, type BackupLeader, BackupSchedule, RETRY_AFTER_FAILURE_MS } from "./schedule.ts";
import { BackupService, backupDue, FIRST_BACKUP_AFTER_MS } from "./service.ts";
import { listBackups, readRecord, rotate } from "./store.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-schedule-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const quiet = { info: () => {}, error: () => {} };

describe("when a scheduled backup is due", () => {
  const start = new Date("2025-03-01T00:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);
  it("never when off", () => {
    expect(backupDue(null, null, start, at(1000 * HOUR))).toBe(false);
  });
  it("every period after the last one", () => {
    expect(backupDue(6 * HOUR, at(0), start, at(6 * HOUR - 1))).toBe(false);
    expect(backupDue(6 * HOUR, at(0), start, at(6 * HOUR))).toBe(true);
  });
  it("with none on record, ten minutes after the start (or the period, when shorter)", () => {
    expect(backupDue(24 * HOUR, null, start, at(FIRST_BACKUP_AFTER_MS - 1))).toBe(false);
    expect(backupDue(24 * HOUR, null, start, at(FIRST_BACKUP_AFTER_MS))).toBe(true);
    expect(backupDue(5 * MIN, null, start, at(5 * MIN))).toBe(true);
  });
});

describe("the schedule and rotation (a fake clock, the job called directly)", () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await testDb.drop();
  });

  function setUp(opts: { everyMs: number; keep: number; leader?: BackupLeader }) {
    const dataDir = tempDir();
    const files = new LocalFileStorage(path.join(dataDir, "files"));
    let now = new Date("2025-03-01T00:00:00Z");
    const clock = () => now;
    const service = new BackupService(
      { database: testDb.database, databaseUrl: null, storage: files, dataDir, version: "test" },
      { everyMs: opts.everyMs, keep: opts.keep, dir: path.join(dataDir, "backups") },
      clock,
    );
    const schedule = new BackupSchedule({
      service,
      leader: opts.leader ?? { acquire: async () => true, close: async () => {} },
      now: clock,
      log: quiet,
    });
    return {
      dir: path.join(dataDir, "backups"),
      files,
      service,
      schedule,
      advance: (ms: number) => {
        now = new Date(now.getTime() + ms);
      },
    };
  }

  it("takes one when due, none in between, and keeps the newest HEARTH_BACKUP_KEEP", async () => {
    const s = setUp({ everyMs: 6 * HOUR, keep: 2 });
    await s.files.put("avatars/a/one-512.webp", Buffer.from("avatar"), "image/webp");
    expect(await s.schedule.tick()).toBeNull(); // just started, nothing on record
    s.advance(FIRST_BACKUP_AFTER_MS);
    const first = await s.schedule.tick();
    expect(first).toMatchObject({ trigger: "schedule", database: "pglite", files: 1 });
    expect(await readRecord(s.dir)).toEqual(first);
    s.advance(HOUR);
    expect(await s.schedule.tick()).toBeNull();
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      s.advance(6 * HOUR);
      const taken = await s.schedule.tick();
      expect(taken).not.toBeNull();
      names.push(path.basename(taken?.file ?? ""));
    }
    // Rotation: the newest two remain; an operator's own file in the folder is left alone.
    writeFileSync(path.join(s.dir, "notes.txt"), "mine");
    await rotate(s.dir, 2);
    expect((await listBackups(s.dir)).map((b) => b.name)).toEqual([names[2], names[1]]);
    expect(readdirSync(s.dir).sort()).toEqual([...names.slice(1), "last-backup.json", "notes.txt"].sort());
    for (const name of names.slice(1)) expect(name).toMatch(BACKUP_NAME);
    const manifest = await verifyBackup(path.join(s.dir, names[2] ?? ""));
    expect(manifest.entries.map((e) => e.name)).toContain("files/avatars/a/one-512.webp");
  }, 120_000);

  it("runs only in the process that leads, and waits after a failure", async () => {
    let leads = false;
    const s = setUp({
      everyMs: HOUR,
      keep: 3,
      leader: { acquire: async () => leads, close: async () => {} },
    });
    s.advance(FIRST_BACKUP_AFTER_MS);
    expect(await s.schedule.tick()).toBeNull();
    expect(existsSync(s.dir)).toBe(false);
    leads = true;
    // A failing backup (its folder cannot be made) is not retried at every tick.
    writeFileSync(`${s.dir}`, "a file where the folder should be");
    expect(await s.schedule.tick()).toBeNull();
    rmSync(s.dir);
    s.advance(MIN);
    expect(await s.schedule.tick()).toBeNull();
    s.advance(RETRY_AFTER_FAILURE_MS);
    expect(await s.schedule.tick()).not.toBeNull();
  }, 120_000);

  it("a command that stops reading mid-backup does not hold up the next backup", async () => {
    const s = setUp({ everyMs: HOUR, keep: 3 });
    // A reader that takes nothing, then goes away.
    const stalled = new Writable({ highWaterMark: 1024, write: () => {} });
    setTimeout(() => stalled.destroy(), 300);
    await expect(s.service.toStream(stalled)).rejects.toThrow();
    const next = await s.service.toFile("command");
    expect(next.size_bytes).toBeGreaterThan(0);
  }, 120_000);

  it("never overlaps: a tick during a run joins it", async () => {
    const s = setUp({ everyMs: HOUR, keep: 3 });
    s.advance(FIRST_BACKUP_AFTER_MS);
    const [a, b] = await Promise.all([s.schedule.tick(), s.schedule.tick()]);
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(await listBackups(s.dir)).toHaveLength(1);
  }, 120_000);
});

describe.each(["pglite", "postgres"] as const)(
  "backups in /api/health and Admin → Backups (%s)",
  (driver) => {
    let h: TestHearth;
    let pgDb: TestDatabase | null = null;
    beforeAll(async () => {
      const env = { HEARTH_BACKUP_EVERY: "6h", HEARTH_BACKUP_KEEP: "3" };
      if (driver === "pglite") h = await startTestHearth({ driver, env });
      else {
        // pg_dump needs the database's address: an install on its own PostgreSQL database.
        pgDb = await createTestDatabase("postgres");
        h = await startTestHearth({ env, install: { dataDir: tempDir(), databaseUrl: pgDb.url ?? "" } });
      }
    });
    afterAll(async () => {
      await h.stop();
      await pgDb?.drop();
    });

    it("reports the last backup's time and size once one is taken", async () => {
      const empty = await h.app.inject({ method: "GET", url: "/api/health" });
      expect(empty.json<Health>().backup).toEqual({ last_at: null, size_bytes: null });
      const record = await h.backups.service.toFile("command");
      const res = await h.app.inject({ method: "GET", url: "/api/health" });
      expect(res.json<Health>().backup).toEqual({
        last_at: record.created_at,
        size_bytes: record.size_bytes,
      });
      expect(record.size_bytes).toBeGreaterThan(1000);
    }, 120_000);

    it("shows administrators the schedule, the last backup and the folder; nobody else", async () => {
      const member = await h.signUp();
      const refused = await h.app.inject({
        method: "GET",
        url: "/api/admin/backups",
        headers: { cookie: member.cookie },
      });
      expect(refused.statusCode).toBe(403);
      expect((await h.app.inject({ method: "GET", url: "/api/admin/backups" })).json<ApiError>().code).toBe(
        "unauthorized",
      );
      const admin = await h.signUp();
      await updateUser(h.database.db, admin.id, { is_admin: true });
      const res = await h.app.inject({
        method: "GET",
        url: "/api/admin/backups",
        headers: { cookie: admin.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<AdminBackups>();
      expect(body.schedule).toMatchObject({ every_s: 6 * 3600, keep: 3, dir: h.config.backups.dir });
      expect(body.last?.database).toBe(driver);
      expect(body.backups).toHaveLength(1);
      expect(body.backups[0]?.size_bytes).toBe(body.last?.size_bytes);
      expect(new Date(body.schedule.next_at ?? 0).getTime()).toBe(
        new Date(body.last?.created_at ?? 0).getTime() + 6 * 3600_000,
      );
    }, 120_000);
  },
);

describe("one process takes scheduled backups on PostgreSQL", () => {
  it("the first to ask leads while it lives; then another takes over", async () => {
    const pgDb = await createTestDatabase("postgres");
    const a = advisoryLeader(pgDb.url ?? "");
    const b = advisoryLeader(pgDb.url ?? "");
    try {
      expect(await a.acquire()).toBe(true);
      expect(await b.acquire()).toBe(false);
      expect(await a.acquire()).toBe(true);
      await a.close(); // the process ends: its connection, and the lock, go
      expect(await b.acquire()).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await pgDb.drop();
    }
  });
});
