import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AdminModels, ApiError, Health, ModelDownload, ModelList } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { CARD, GREEDY, TEST_MODEL_PATH } from "../../../test/model.ts";
import type { LlamaCppBackend } from "../../adapters/llama-cpp.ts";
import { repoRoot } from "../../config.ts";
import type { LlmEvent } from "../../ports/llm.ts";
import { BUNDLED_MODEL, CATALOG } from "./catalog.ts";
import { closedPort, type GgufTestServer, startGgufServer } from "./test-gguf-server.ts";

/**
 * /api/admin/models against a whole Hearth. The model host is a local HTTP server holding a copy
 * of the bundled model (HEARTH_TEST_MODEL may name another GGUF), so a downloaded model really
 * loads when it is made active.
 */

const JSON_HEADERS = { "content-type": "application/json" };

describe("admin models API", () => {
  let h: TestHearth;
  let host: GgufTestServer;
  let admin: string;

  beforeAll(async () => {
    [h, host] = await Promise.all([startTestHearth(), startGgufServer(readFileSync(TEST_MODEL_PATH))]);
    const user = await h.signUp({ name: "Operator" });
    await updateUser(h.database.db, user.id, { is_admin: true });
    admin = user.cookie;
  });
  afterAll(async () => {
    await h?.stop();
    await host?.close();
  });

  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie?: string, body?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: { ...(body !== undefined ? JSON_HEADERS : {}), ...(cookie ? { cookie } : {}) },
      ...(body !== undefined ? { payload: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
  const overview = async () => {
    const res = await call("GET", "/api/admin/models", admin);
    expect(res.statusCode).toBe(200);
    return res.json<AdminModels>();
  };
  const startDownload = async (body: unknown) => {
    const res = await call("POST", "/api/admin/models/downloads", admin, body);
    expect(res.statusCode, res.body).toBe(202);
    return res.json<ModelDownload>();
  };
  /** Polls the current download as the page does, until it has ended; answers every state seen. */
  const pollUntilEnded = async () => {
    const seen: ModelDownload[] = [];
    for (;;) {
      const res = await call("GET", "/api/admin/models/downloads/current", admin);
      expect(res.statusCode).toBe(200);
      const state = res.json<ModelDownload>();
      seen.push(state);
      if (state.status !== "running") return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const modelPath = (id: string) => path.join(h.config.dataDir, "models", `${id}.gguf`);

  it("is for admins only: 401 signed out, 403 for guests and members, `restricted` for a restricted admin", async () => {
    const guest = await h.signInAsGuest();
    const free = await h.signUp();
    const premium = await h.signUp();
    await updateUser(h.database.db, premium.id, { role: "premium", status: "active" });
    const restricted = await h.signUp();
    await updateUser(h.database.db, restricted.id, { is_admin: true, restriction: "complete" });

    const endpoints = [
      ["GET", "/api/admin/models", undefined],
      ["POST", "/api/admin/models/downloads", { id: CATALOG[0]?.id }],
      ["GET", "/api/admin/models/downloads/current", undefined],
      ["DELETE", "/api/admin/models/downloads/current", undefined],
      ["PUT", "/api/admin/models/active", { id: BUNDLED_MODEL.id }],
    ] as const;
    for (const [method, url, body] of endpoints) {
      const signedOut = await call(method, url, undefined, body);
      expect(signedOut.statusCode, `${method} ${url}`).toBe(401);
      for (const who of [guest, free, premium]) {
        const res = await call(method, url, who.cookie, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json<ApiError>().code).toBe("forbidden");
      }
      const res = await call(method, url, restricted.cookie, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<ApiError>().code).toBe("restricted");
    }
    expect((await call("GET", "/api/admin/models", admin)).statusCode).toBe(200);
  });

  it("shows the tiny demo model as active, the catalog, and no download, without filesystem paths", async () => {
    const res = await call("GET", "/api/admin/models", admin);
    const body = res.json<AdminModels>();
    expect(body.active).toMatchObject({ id: BUNDLED_MODEL.id, is_demo: true, backend: "llama-cpp" });
    expect(["ok", "degraded", "down"]).toContain(body.active.state.status);
    expect(body.catalog.map((m) => m.id)).toEqual(CATALOG.map((m) => m.id));
    expect(body.catalog[0]).toMatchObject({ downloaded: false, partial_bytes: null });
    expect(body.catalog.every((m) => m.approx_bytes > 0 && m.licence.length > 0)).toBe(true);
    expect(body.download).toBeNull();
    expect(body.settings_lock).toBeNull();
    expect(body.installed.filter((m) => !m.bundled)).toEqual([]);
    expect(res.body).not.toContain(h.config.dataDir);
    expect(res.body).not.toContain(repoRoot());
    expect((await call("GET", "/api/admin/models/downloads/current", admin)).statusCode).toBe(404);
  });

  it("validates every body with the contract (400, never 500)", async () => {
    const bad: unknown[] = [
      {},
      { id: CATALOG[0]?.id, url: host.url("/model.gguf") },
      { url: "file:///etc/passwd" },
      { url: "ftp://example.com/model.gguf" },
      { url: "not a url" },
      { url: host.url("/model.gguf"), name: "../escape" },
      { url: host.url("/model.gguf"), name: BUNDLED_MODEL.id },
      { id: "no-such-model" },
      { id: BUNDLED_MODEL.id },
      { id: 5 },
      { id: CATALOG[0]?.id, name: "x" },
      [],
      "{not json",
    ];
    for (const body of bad) {
      const res = await call("POST", "/api/admin/models/downloads", admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<ApiError>().code).toBe("invalidRequest");
    }
    for (const body of [{}, { id: "" }, { id: ["a"] }, "{"]) {
      const res = await call("PUT", "/api/admin/models/active", admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const missing = await call("PUT", "/api/admin/models/active", admin, { id: "never-downloaded" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ApiError>().message).toBe('No downloaded model "never-downloaded".');
    expect((await call("PUT", "/api/admin/models/active", admin, { id: "../../etc" })).statusCode).toBe(404);
    expect((await overview()).download).toBeNull();
  });

  it("downloads a model from a URL in the background, with progress polled until done", async () => {
    const started = await startDownload({ url: host.url("/model.gguf"), name: "Tiny-A.gguf" });
    expect(started).toMatchObject({ id: "tiny-a", status: "running", error: null, finished_at: null });
    expect(Number.isNaN(Date.parse(started.started_at))).toBe(false);

    const seen = await pollUntilEnded();
    const last = seen.at(-1);
    expect(last).toMatchObject({
      id: "tiny-a",
      status: "done",
      received_bytes: host.file.length,
      total_bytes: host.file.length,
      bytes_per_second: 0,
      error: null,
    });
    expect(last?.finished_at).not.toBeNull();
    for (const state of seen) {
      expect(state.received_bytes).toBeLessThanOrEqual(state.total_bytes ?? Number.POSITIVE_INFINITY);
    }
    expect(readFileSync(modelPath("tiny-a")).equals(host.file)).toBe(true);

    const body = await overview();
    expect(body.installed.find((m) => m.id === "tiny-a")).toEqual({
      id: "tiny-a",
      name: "tiny-a",
      bytes: host.file.length,
      description: "Downloaded from a URL.",
      bundled: false,
      active: false,
    });
    expect(body.download?.status).toBe("done");

    // The same model again is a conflict, not a second copy.
    const again = await call("POST", "/api/admin/models/downloads", admin, {
      url: host.url("/model.gguf"),
      name: "tiny-a",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<ApiError>().message).toBe("tiny-a is already downloaded.");
  });

  it("runs one download at a time, cancels keeping the .part, and the next download resumes it", async () => {
    // /stall.gguf sends its first megabyte, then nothing (until a later request).
    await startDownload({ url: host.url("/stall.gguf") });
    await vi.waitFor(
      async () => {
        const state = (await call("GET", "/api/admin/models/downloads/current", admin)).json<ModelDownload>();
        expect(state.received_bytes).toBe(host.cutAt);
      },
      { timeout: 20_000, interval: 50 },
    );
    const second = await call("POST", "/api/admin/models/downloads", admin, { url: host.url("/x.gguf") });
    expect(second.statusCode).toBe(409);
    expect(second.json<ApiError>()).toMatchObject({ code: "conflict" });
    expect(second.json<ApiError>().message).toMatch(/^stall is downloading \(\d+% of .+\)\. Wait for it/);

    const cancel = await call("DELETE", "/api/admin/models/downloads/current", admin);
    expect(cancel.statusCode).toBe(200);
    const cancelled = cancel.json<ModelDownload>();
    expect(cancelled).toMatchObject({ id: "stall", status: "cancelled", error: null, bytes_per_second: 0 });
    expect(cancelled.note).toMatch(/^Cancelled\. 1\.0 MB kept: downloading it again resumes from there\.$/);
    expect(statSync(`${modelPath("stall")}.part`).size).toBe(host.cutAt);
    expect(existsSync(modelPath("stall"))).toBe(false);
    expect((await call("DELETE", "/api/admin/models/downloads/current", admin)).statusCode).toBe(409);

    await startDownload({ url: host.url("/stall.gguf") });
    expect((await pollUntilEnded()).at(-1)).toMatchObject({ id: "stall", status: "done" });
    expect(host.rangesFor("/stall.gguf")).toEqual([undefined, `bytes=${host.cutAt}-`]);
    expect(readFileSync(modelPath("stall")).equals(host.file)).toBe(true);
  });

  it("says in words why a download failed: an unreachable host, a 404", async () => {
    const port = await closedPort();
    await startDownload({ url: `http://127.0.0.1:${port}/model.gguf` });
    const unreachable = (await pollUntilEnded()).at(-1);
    expect(unreachable).toMatchObject({ id: "model", status: "failed" });
    expect(unreachable?.error).toBe(
      `Could not reach 127.0.0.1:${port} (ECONNREFUSED). Are you offline? Check the network connection (and any proxy or firewall), then try again.`,
    );

    await startDownload({ url: host.url("/missing.gguf") });
    const missing = (await pollUntilEnded()).at(-1);
    expect(missing).toMatchObject({ id: "missing", status: "failed" });
    expect(missing?.error).toBe(
      `Not found (HTTP 404): ${host.url("/missing.gguf")}. Check the model name or URL.`,
    );
    expect((await overview()).installed.map((m) => m.id)).not.toContain("missing");
  });

  it("switches the running server to a downloaded model, and closes the old one once it is idle", async () => {
    const use = await call("PUT", "/api/admin/models/active", admin, { id: "tiny-a" });
    expect(use.statusCode, use.body).toBe(200);
    const after = use.json<AdminModels>();
    expect(after.active).toMatchObject({
      id: "tiny-a",
      name: "tiny-a",
      is_demo: false,
      backend: "llama-cpp",
    });
    expect(after.installed.filter((m) => m.active).map((m) => m.id)).toEqual(["tiny-a"]);
    expect(use.body).not.toContain(h.config.dataDir);
    const record = JSON.parse(readFileSync(path.join(h.config.dataDir, "models/active.json"), "utf8"));
    expect(record).toEqual({ id: "tiny-a", path: modelPath("tiny-a") });

    const models = (await call("GET", "/api/models")).json<ModelList>();
    expect(models.default_id).toBe("tiny-a");
    expect(models.models.map((m) => [m.id, m.is_demo])).toEqual([["tiny-a", false]]);

    // Model A loads and starts a reply that is still being generated when B becomes active.
    const a = (await h.inference.backend()) as LlamaCppBackend;
    await vi.waitFor(async () =>
      expect((await health()).model).toMatchObject({ status: "ok", name: "tiny-a" }),
    );
    const closeA = vi.spyOn(a, "close");
    const reply = a
      .chat({
        messages: [
          { role: "system", content: CARD },
          { role: "user", content: "Hello Mira, what are you reading?" },
        ],
        sampling: { ...GREEDY, maxTokens: 64 },
      })
      [Symbol.asyncIterator]() as AsyncIterator<LlmEvent>;
    const first = await reply.next();
    expect(first.value?.type).toBe("token");
    expect(a.busySequences).toBe(1);

    await startDownload({ url: host.url("/x.gguf"), name: "tiny-b" });
    expect((await pollUntilEnded()).at(-1)?.status).toBe("done");
    const switched = await call("PUT", "/api/admin/models/active", admin, { id: "tiny-b" });
    expect(switched.statusCode).toBe(200);
    expect(switched.json<AdminModels>().active.id).toBe("tiny-b");
    expect((await call("GET", "/api/models")).json<ModelList>().default_id).toBe("tiny-b");

    // New generations get B; A keeps generating the running reply and stays open meanwhile.
    const b = await h.inference.backend();
    expect(b).not.toBe(a);
    await vi.waitFor(async () =>
      expect((await health()).model).toMatchObject({ status: "ok", name: "tiny-b" }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(closeA).not.toHaveBeenCalled();
    const next = await reply.next();
    expect(next.done).toBe(false);

    await reply.return?.();
    expect(a.busySequences).toBe(0);
    await h.inference.whenRetired();
    expect(closeA).toHaveBeenCalledTimes(1);
    expect((await health()).model).toMatchObject({ status: "ok", name: "tiny-b" });
  });

  it.runIf(existsSync(BUNDLED_MODEL.path))("switches back to the bundled demo model", async () => {
    const res = await call("PUT", "/api/admin/models/active", admin, { id: BUNDLED_MODEL.id });
    expect(res.statusCode).toBe(200);
    const body = res.json<AdminModels>();
    expect(body.active).toMatchObject({ id: BUNDLED_MODEL.id, is_demo: true });
    expect(body.installed.find((m) => m.bundled)).toMatchObject({ id: BUNDLED_MODEL.id, active: true });
    expect((await call("GET", "/api/models")).json<ModelList>().models[0]?.is_demo).toBe(true);
  });

  async function health(): Promise<Health> {
    return (await call("GET", "/api/health")).json<Health>();
  }
});

describe("models configured by the operator's settings", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-admin-models-"));
  const modelsFile = path.join(dir, "models.json");
  writeFileSync(
    modelsFile,
    JSON.stringify({
      models: [{ id: "tiny", name: "Tiny", backend: { type: "embedded", path: TEST_MODEL_PATH } }],
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ["HEARTH_MODELS_FILE", { HEARTH_MODELS_FILE: modelsFile }, "a models file (HEARTH_MODELS_FILE)"],
    ["LLM_BASE_URL", { LLM_BASE_URL: "http://127.0.0.1:9/v1" }, "a model server address (LLM_BASE_URL)"],
  ])("refuses to switch when %s chooses the models (409)", async (_name, env, why) => {
    const h = await startTestHearth({ env });
    try {
      const user = await h.signUp();
      await updateUser(h.database.db, user.id, { is_admin: true });
      const body = (
        await h.app.inject({ method: "GET", url: "/api/admin/models", headers: { cookie: user.cookie } })
      ).json<AdminModels>();
      expect(body.settings_lock).toContain(why);
      const res = await h.app.inject({
        method: "PUT",
        url: "/api/admin/models/active",
        headers: { cookie: user.cookie, ...JSON_HEADERS },
        payload: JSON.stringify({ id: BUNDLED_MODEL.id }),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json<ApiError>()).toMatchObject({ code: "conflict" });
      expect(res.json<ApiError>().message).toMatch(/^Models are configured by the operator's settings/);
      expect(existsSync(path.join(h.config.dataDir, "models/active.json"))).toBe(false);
    } finally {
      await h.stop();
    }
  });
});
