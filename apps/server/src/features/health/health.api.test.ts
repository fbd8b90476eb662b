import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApiError, Health } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_POOL_MAX } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";

describe.each([
  { driver: "pglite" as const, redis: false },
  { driver: "postgres" as const, redis: true },
  { driver: "postgres" as const, redis: "cluster" as const },
])("health, metrics and web serving ($driver, redis: $redis)", ({ driver, redis }) => {
  let h: TestHearth;
  const web = mkdtempSync(path.join(tmpdir(), "hearth-web-"));
  beforeAll(async () => {
    mkdirSync(path.join(web, "assets"));
    writeFileSync(path.join(web, "index.html"), "<!doctype html><title>Hearth</title><div id=root></div>");
    writeFileSync(path.join(web, "assets", "app-abc123.js"), "console.log('hi')");
    h = await startTestHearth({ driver, redis, env: { HEARTH_WEB_DIST: web } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("reports version and the state of database, queue and model", async () => {
    const res = await h.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    const body = res.json<Health>();
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.database).toEqual({ status: "ok", driver });
    expect(body.queue).toEqual({ status: "ok", driver: redis ? "redis" : "in-process" });
    expect(body.model.status).toBeDefined();
  });

  it("answers 503 when the database is gone", async () => {
    const broken = await startTestHearth({ driver, redis });
    await broken.database.close();
    const res = await broken.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json<Health>().database.status).toBe("down");
    await broken.close();
  });

  it("exposes Prometheus metrics with request counts by route", async () => {
    await h.app.inject({ method: "GET", url: "/api/health" });
    const res = await h.app.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('hearth_http_requests_total{method="GET",route="/api/health",status="200"}');
    expect(res.body).toContain("hearth_process_cpu_user_seconds_total");
    // PostgreSQL's pool, as configured for test databases (TEST_POOL_MAX); PGlite has none.
    if (driver === "postgres")
      expect(res.body).toMatch(new RegExp(`^hearth_db_pool_size ${TEST_POOL_MAX}$`, "m"));
    else expect(res.body).not.toContain("hearth_db_pool_size");
  });

  it("asks for the metrics token when one is set", async () => {
    const token = "metrics-token-0123456789";
    const guarded = await startTestHearth({ driver, redis, env: { HEARTH_METRICS_TOKEN: token } });
    try {
      const open = await guarded.app.inject({ method: "GET", url: "/metrics" });
      expect(open.statusCode).toBe(401);
      expect(open.json<ApiError>().code).toBe("unauthorized");
      const wrong = await guarded.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: "Bearer nope" },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await guarded.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain("hearth_process_cpu_user_seconds_total");
    } finally {
      await guarded.stop();
    }
  });

  it("answers unknown API paths with a JSON 404, never the web page", async () => {
    const res = await h.app.inject({ method: "GET", url: "/api/does-not-exist" });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiError>().code).toBe("notFound");
    expect((await h.app.inject({ method: "POST", url: "/chats" })).statusCode).toBe(404);
  });

  it("serves the web client, with deep links falling back to index.html", async () => {
    const deep = await h.app.inject({ method: "GET", url: "/chat/abc/def?x=1" });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain("<div id=root>");
    expect(deep.headers["cache-control"]).toBe("no-cache");
    const asset = await h.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
  });
});
