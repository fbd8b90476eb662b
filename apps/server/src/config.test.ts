import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { databaseTarget } from "./db/client.ts";

describe("HEARTH_TRUSTED_ORIGINS", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-config-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const trusted = (value?: string) =>
    loadConfig({
      HEARTH_DATA_DIR: dataDir,
      ...(value === undefined ? {} : { HEARTH_TRUSTED_ORIGINS: value }),
    }).trustedOrigins;

  it("is empty by default", () => {
    expect(trusted()).toEqual([]);
    expect(trusted(" , ")).toEqual([]);
  });

  it("holds origins as browsers send them: lower case, no default port, no trailing slash", () => {
    expect(trusted("https://Partner.Example:443/, http://localhost:8080,https://partner.example")).toEqual([
      "https://partner.example",
      "http://localhost:8080",
    ]);
  });

  it("refuses anything that is not an http(s) origin, naming it", () => {
    for (const bad of ["partner.example", "https://partner.example/app", "ftp://partner.example", "null"]) {
      expect(() => trusted(bad)).toThrow(ConfigError);
      expect(() => trusted(bad)).toThrow(bad);
    }
  });
});

describe("HEARTH_ROLE", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-config-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ HEARTH_DATA_DIR: dataDir, ...env });
  const shared = { DATABASE_URL: "postgres://db/hearth", REDIS_URL: "redis://redis:6379" };

  it("is all by default, with the default Redis prefix and a 30 s dead-worker limit", () => {
    expect(load({})).toMatchObject({ role: "all", redisPrefix: "hearth", workerStaleS: 30 });
  });

  it("waits 30 s for running replies on SIGTERM by default; 0 waits not at all; a bad value names the setting", () => {
    expect(load({}).drainS).toBe(30);
    expect(load({ HEARTH_DRAIN_S: "0" }).drainS).toBe(0);
    expect(load({ HEARTH_DRAIN_S: "120" }).drainS).toBe(120);
    for (const bad of ["-1", "soon", "1.5", "99999"]) {
      expect(() => load({ HEARTH_DRAIN_S: bad })).toThrow(ConfigError);
      expect(() => load({ HEARTH_DRAIN_S: bad })).toThrow(/HEARTH_DRAIN_S/);
    }
  });

  it("splits api and worker only on PostgreSQL and Redis, saying why in one line", () => {
    for (const role of ["api", "worker"]) {
      expect(load({ HEARTH_ROLE: role, ...shared }).role).toBe(role);
      const partials: Record<string, string>[] = [
        {},
        { DATABASE_URL: shared.DATABASE_URL },
        { REDIS_URL: shared.REDIS_URL },
      ];
      for (const partial of partials) {
        expect(() => load({ HEARTH_ROLE: role, ...partial })).toThrow(ConfigError);
        expect(() => load({ HEARTH_ROLE: role, ...partial })).toThrow(
          /needs DATABASE_URL and REDIS_URL: [^\n]+$/,
        );
      }
    }
    expect(() => load({ HEARTH_ROLE: "both", ...shared })).toThrow(ConfigError);
  });

  it("refuses a Redis prefix with separators or spaces", () => {
    expect(load({ HEARTH_REDIS_PREFIX: "scale_1" }).redisPrefix).toBe("scale_1");
    expect(() => load({ HEARTH_REDIS_PREFIX: "a b" })).toThrow(ConfigError);
    expect(() => load({ HEARTH_REDIS_PREFIX: "a:b" })).toThrow(ConfigError);
  });

  it("takes REDIS_URL as a cluster's nodes with HEARTH_REDIS_CLUSTER, and refuses the flag alone", () => {
    expect(load({ REDIS_URL: "redis://r:6379" }).redisCluster).toBe(false);
    const nodes = "redis://a:6379,redis://b:6379";
    expect(load({ REDIS_URL: nodes, HEARTH_REDIS_CLUSTER: "true" })).toMatchObject({
      redisUrl: nodes,
      redisCluster: true,
    });
    expect(() => load({ HEARTH_REDIS_CLUSTER: "true" })).toThrow(/needs REDIS_URL/);
    expect(() => load({ REDIS_URL: nodes, HEARTH_REDIS_CLUSTER: "maybe" })).toThrow(ConfigError);
  });
});

describe("HEARTH_BACKUP_EVERY, HEARTH_BACKUP_KEEP, HEARTH_BACKUP_DIR", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-config-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const backups = (env: Record<string, string> = {}) =>
    loadConfig({ HEARTH_DATA_DIR: dataDir, ...env }).backups;

  it("backs up daily, keeps 7, into the data directory's backups folder by default", () => {
    expect(backups()).toEqual({ everyMs: 86_400_000, keep: 7, dir: path.join(dataDir, "backups") });
  });

  it("reads minutes, hours and days, and off", () => {
    expect(backups({ HEARTH_BACKUP_EVERY: "6h" }).everyMs).toBe(6 * 3_600_000);
    expect(backups({ HEARTH_BACKUP_EVERY: "30m" }).everyMs).toBe(30 * 60_000);
    expect(backups({ HEARTH_BACKUP_EVERY: " 2D " }).everyMs).toBe(2 * 86_400_000);
    for (const off of ["off", "0", "false", "none"])
      expect(backups({ HEARTH_BACKUP_EVERY: off }).everyMs).toBeNull();
    expect(backups({ HEARTH_BACKUP_KEEP: "30", HEARTH_BACKUP_DIR: "/srv/hearth-backups" })).toMatchObject({
      keep: 30,
      dir: "/srv/hearth-backups",
    });
  });

  it("refuses other periods and counts, naming the variable", () => {
    for (const bad of ["6", "6 hours", "1w", "1m", "-1h", "400d", "soon"]) {
      expect(() => backups({ HEARTH_BACKUP_EVERY: bad }), bad).toThrow(ConfigError);
      expect(() => backups({ HEARTH_BACKUP_EVERY: bad }), bad).toThrow(/HEARTH_BACKUP_EVERY/);
    }
    expect(() => backups({ HEARTH_BACKUP_EVERY: "1m" })).toThrow(/at least 5m/);
    for (const bad of ["0", "-2", "two", "1.5"]) {
      expect(() => backups({ HEARTH_BACKUP_KEEP: bad }), bad).toThrow(/HEARTH_BACKUP_KEEP/);
    }
  });
});

describe("HEARTH_DURABILITY_WINDOW_MS", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-config-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ HEARTH_DATA_DIR: dataDir, ...env });

  it("may lose at most 1 s of acknowledged embedded writes by default; 0 fsyncs every commit", () => {
    expect(load({}).durabilityWindowMs).toBe(1000);
    expect(load({ HEARTH_DURABILITY_WINDOW_MS: "0" }).durabilityWindowMs).toBe(0);
    expect(load({ HEARTH_DURABILITY_WINDOW_MS: "250" }).durabilityWindowMs).toBe(250);
  });

  it("reaches the embedded database's target, and not PostgreSQL's (which keeps its own fsync)", () => {
    expect(databaseTarget(load({ HEARTH_DURABILITY_WINDOW_MS: "250" }))).toEqual({
      pgliteDir: path.join(dataDir, "db"),
      durabilityWindowMs: 250,
      maintenanceEveryMs: 60_000,
    });
    expect(databaseTarget(load({ HEARTH_DB_MAINTENANCE_S: "0" }))).toMatchObject({ maintenanceEveryMs: 0 });
    expect(databaseTarget(load({ DATABASE_URL: "postgres://db/hearth" }))).toEqual({
      url: "postgres://db/hearth",
      poolMax: 30,
    });
  });

  it("sizes PostgreSQL's pool with HEARTH_DB_POOL, refusing what is not a count", () => {
    expect(databaseTarget(load({ DATABASE_URL: "postgres://db/hearth", HEARTH_DB_POOL: "12" }))).toEqual({
      url: "postgres://db/hearth",
      poolMax: 12,
    });
    for (const bad of ["0", "-3", "2.5", "many", "1001"]) {
      expect(() => load({ HEARTH_DB_POOL: bad }), bad).toThrow(/HEARTH_DB_POOL/);
    }
  });

  it("refuses negatives, fractions, words and more than a minute, naming the variable", () => {
    for (const bad of ["-1", "1.5", "soon", "off", "60001"]) {
      expect(() => load({ HEARTH_DURABILITY_WINDOW_MS: bad }), bad).toThrow(ConfigError);
      expect(() => load({ HEARTH_DURABILITY_WINDOW_MS: bad }), bad).toThrow(/HEARTH_DURABILITY_WINDOW_MS/);
    }
  });
});
