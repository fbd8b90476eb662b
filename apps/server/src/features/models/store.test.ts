import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  isValidModelId,
  listStoredModels,
  modelIdFromUrl,
  readActiveModel,
  removeStoredModel,
  writeActiveModel,
} from "./store.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-models-store-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("model store", () => {
  it("derives safe ids from URLs", () => {
    const hf =
      "https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf";
    expect(modelIdFromUrl(hf)).toBe("llama-3.2-1b-instruct-q4_k_m");
    expect(modelIdFromUrl("http://127.0.0.1:1/My%20Model%20(v2).gguf?download=true")).toBe("my-model-v2");
    expect(modelIdFromUrl("http://127.0.0.1:1/")).toBe("model");
    expect(isValidModelId("../etc/passwd")).toBe(false);
    expect(isValidModelId("qwen2.5-3b-instruct")).toBe(true);
  });

  it("records the active model and lists complete and partial downloads", () => {
    expect(readActiveModel(dataDir)).toBeNull();
    const dir = path.join(dataDir, "models");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "a.gguf"), "GGUF");
    writeFileSync(path.join(dir, "b.gguf.part"), "GG");
    writeFileSync(path.join(dir, "notes.txt"), "ignored");
    expect(listStoredModels(dataDir).map((m) => [m.id, m.bytes, m.partial])).toEqual([
      ["a", 4, false],
      ["b", 2, true],
    ]);

    writeActiveModel(dataDir, { id: "a", path: path.join(dir, "a.gguf") });
    expect(readActiveModel(dataDir)).toEqual({ id: "a", path: path.join(dir, "a.gguf") });
    expect(removeStoredModel(dataDir, "a")).toEqual({ removed: true, wasActive: true });
    expect(readActiveModel(dataDir)).toBeNull();
  });

  it("reads no active model from a record whose file is gone or that is malformed", () => {
    writeActiveModel(dataDir, { id: "gone", path: path.join(dataDir, "models", "gone.gguf") });
    expect(readActiveModel(dataDir)).toBeNull();
    writeFileSync(path.join(dataDir, "models", "active.json"), "{ not json");
    expect(readActiveModel(dataDir)).toBeNull();
  });
});
