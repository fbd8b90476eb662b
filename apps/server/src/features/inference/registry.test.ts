import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AccountStatus, SubscriberRole } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.ts";
import { viewerFromUser } from "../accounts/viewer.ts";
import {
  BUNDLED_MODEL_ID,
  BUNDLED_MODEL_PATH,
  loadRegistry,
  modelsFor,
  type RegistryEntry,
  resolveLocalModel,
} from "./registry.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "hearth-registry-"));

function writeRegistry(models: unknown[], extra: object = {}) {
  const file = path.join(dataDir(), "models.json");
  writeFileSync(file, JSON.stringify({ models, ...extra }));
  return loadConfig({ HEARTH_DATA_DIR: dataDir(), HEARTH_MODELS_FILE: file });
}

const registry = loadRegistry(
  writeRegistry(
    [
      { id: "small", name: "Small", backend: { type: "embedded", path: BUNDLED_MODEL_PATH } },
      {
        id: "45b",
        name: "Big 45B",
        permission: "4k_context",
        tags: ["45B"],
        backend: { type: "openai", base_url: "http://127.0.0.1:9/v1", model: "big" },
      },
      {
        id: "70b",
        name: "Huge 70B",
        tokens: 16384,
        permission: "8k_context",
        hide_unauthorized: true,
        backend: { type: "openai", base_url: "http://127.0.0.1:9/v1", model: "huge" },
      },
    ],
    { default: "small" },
  ),
);

const viewer = (role: SubscriberRole, status: AccountStatus = "active", isAnonymous = false) =>
  viewerFromUser({
    id: "u",
    email: "u@example.com",
    name: "U",
    createdAt: new Date(),
    role,
    status,
    isAnonymous,
  });

/** Windows as the inference service reports them: the bundled file's own, a remote's configured one. */
const windowOf = (entry: RegistryEntry) => (entry.id === "small" ? 2048 : entry.tokens);

describe("model registry", () => {
  it("a guest and a free user see the 45B model disabled and the hidden 70B not at all", () => {
    for (const v of [
      null,
      viewerFromUser({ id: "g", email: "", name: "Guest", createdAt: new Date(), isAnonymous: true }),
      viewer("free", "inactive"),
    ]) {
      const list = modelsFor(registry, v, windowOf);
      expect(list.models.map((m) => [m.id, m.available])).toEqual([
        ["small", true],
        ["45b", false],
      ]);
    }
  });

  it("True Supporter may use the 45B model; I'm All In sees and may use all three", () => {
    expect(modelsFor(registry, viewer("basic"), windowOf).models.map((m) => [m.id, m.available])).toEqual([
      ["small", true],
      ["45b", true],
    ]);
    const premium = modelsFor(registry, viewer("premium"), windowOf);
    expect(premium.models.map((m) => [m.id, m.available])).toEqual([
      ["small", true],
      ["45b", true],
      ["70b", true],
    ]);
    expect(premium.models[2]).toMatchObject({
      tokens: 16384,
      permission: "8k_context",
      hide_unauthorized: true,
    });
  });

  it("a stored choice that no longer exists, or is not allowed, falls back to the default", () => {
    expect(modelsFor(registry, viewer("premium"), windowOf, "70b").selected_id).toBe("70b");
    expect(modelsFor(registry, viewer("premium"), windowOf, "deleted-model").selected_id).toBe("small");
    expect(modelsFor(registry, viewer("free"), windowOf, "45b").selected_id).toBe("small");
    expect(modelsFor(registry, viewer("free"), windowOf).selected_id).toBe("small");
  });

  it("reports the window each model really holds", () => {
    expect(
      modelsFor(registry, viewer("premium"), windowOf).models.map((m) => [m.id, m.context_tokens]),
    ).toEqual([
      ["small", 2048],
      ["45b", 8192],
      ["70b", 16384],
    ]);
  });

  it("marks the bundled model as the demo model", () => {
    expect(modelsFor(registry, null, windowOf).models[0]?.is_demo).toBe(true);
    expect(modelsFor(registry, null, windowOf).models[1]?.is_demo).toBe(false);
  });

  it("refuses a registry file with a bad entry or an unknown default", () => {
    expect(() => loadRegistry(writeRegistry([{ id: "x", name: "X", backend: { type: "ftp" } }]))).toThrow(
      ConfigError,
    );
    expect(() =>
      loadRegistry(
        writeRegistry([{ id: "x", name: "X", backend: { type: "embedded", path: "/x.gguf" } }], {
          default: "y",
        }),
      ),
    ).toThrow(/default model "y" is not listed/);
  });
});

describe("single-model configuration", () => {
  it("uses the bundled demo model on a fresh install", () => {
    const r = loadRegistry(loadConfig({ HEARTH_DATA_DIR: dataDir() }));
    expect(r.entries).toHaveLength(1);
    expect(r.entries[0]).toMatchObject({
      id: BUNDLED_MODEL_ID,
      backend: { type: "embedded", path: BUNDLED_MODEL_PATH },
    });
  });

  it("uses an OpenAI-compatible server when LLM_BASE_URL is set", () => {
    const r = loadRegistry(
      loadConfig({ HEARTH_DATA_DIR: dataDir(), LLM_BASE_URL: "http://gpu:8000/v1", LLM_MODEL: "qwen" }),
    );
    expect(r.entries[0]).toMatchObject({
      id: "qwen",
      backend: { type: "openai", base_url: "http://gpu:8000/v1", model: "qwen" },
    });
  });

  it("prefers LLM_MODEL, then the model chosen with `models pull --use`, then the bundled one", () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, "models"));
    writeFileSync(path.join(dir, "models", "mine.gguf"), "GGUF");
    writeFileSync(
      path.join(dir, "models", "active.json"),
      JSON.stringify({ id: "mine", path: path.join(dir, "models", "mine.gguf") }),
    );
    expect(resolveLocalModel(loadConfig({ HEARTH_DATA_DIR: dir })).id).toBe("mine");
    expect(resolveLocalModel(loadConfig({ HEARTH_DATA_DIR: dir, LLM_MODEL: BUNDLED_MODEL_ID })).id).toBe(
      BUNDLED_MODEL_ID,
    );
    expect(() => resolveLocalModel(loadConfig({ HEARTH_DATA_DIR: dir, LLM_MODEL: "absent" }))).toThrow(
      /hearth models pull absent/,
    );
  });
});
