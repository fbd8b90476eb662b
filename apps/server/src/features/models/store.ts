import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

/**
 * Downloaded models on disk: `<dataDir>/models/<id>.gguf` (plus `<id>.gguf.part` while a download
 * is unfinished), and `<dataDir>/models/active.json` naming the model the server loads.
 */

export interface ActiveModel {
  id: string;
  /** Absolute path of the GGUF file. */
  path: string;
}

export interface StoredModel {
  id: string;
  path: string;
  bytes: number;
  /** An unfinished download (`.gguf.part`) that `models pull` resumes. */
  partial: boolean;
}

const ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const PART_SUFFIX = ".gguf.part";

export function modelsDir(dataDir: string): string {
  return path.join(dataDir, "models");
}

export function modelFile(dataDir: string, id: string): string {
  if (!isValidModelId(id)) throw new Error(`Invalid model id: ${id}`);
  return path.join(modelsDir(dataDir), `${id}.gguf`);
}

/** Ids become file names, so they are restricted to a safe, lowercase alphabet. */
export function isValidModelId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.endsWith(".gguf");
}

/** Lowercases a user-given name and drops a trailing ".gguf"; the result may still be invalid. */
export function normaliseModelId(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\.gguf$/, "");
}

/** A model id from a download URL's file name: ".../Llama-3.2-1B-Instruct-Q4_K_M.gguf" → "llama-3.2-1b-instruct-q4_k_m". */
export function modelIdFromUrl(url: string): string {
  const last = new URL(url).pathname.split("/").filter(Boolean).pop() ?? "";
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  const id = normaliseModelId(name)
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+|[-._]+$/g, "")
    .slice(0, 64)
    .replace(/[-._]+$/, "");
  return id || "model";
}

/** Complete and partial downloads, sorted by id. */
export function listStoredModels(dataDir: string): StoredModel[] {
  const dir = modelsDir(dataDir);
  if (!existsSync(dir)) return [];
  const found: StoredModel[] = [];
  for (const name of readdirSync(dir)) {
    const partial = name.endsWith(PART_SUFFIX);
    if (!partial && !name.endsWith(".gguf")) continue;
    const id = name.slice(0, -(partial ? PART_SUFFIX : ".gguf").length);
    if (!isValidModelId(id)) continue;
    const file = path.join(dir, name);
    found.push({ id, path: file, bytes: statSync(file).size, partial });
  }
  return found.sort((a, b) => a.id.localeCompare(b.id) || Number(a.partial) - Number(b.partial));
}

function activeFile(dataDir: string): string {
  return path.join(modelsDir(dataDir), "active.json");
}

/**
 * The model chosen with `hearth models pull --use` / `hearth models use`, or null when none was
 * chosen, the record is unreadable, or its file no longer exists.
 */
export function readActiveModel(dataDir: string): ActiveModel | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(activeFile(dataDir), "utf8"));
  } catch {
    return null;
  }
  const record = parsed as Partial<ActiveModel> | null;
  if (typeof record?.id !== "string" || typeof record.path !== "string") return null;
  return existsSync(record.path) ? { id: record.id, path: record.path } : null;
}

export function writeActiveModel(dataDir: string, model: ActiveModel): void {
  writeJsonAtomically(activeFile(dataDir), { id: model.id, path: path.resolve(model.path) });
  // A model file chosen now wins over a model server chosen before.
  rmSync(activeServerFile(dataDir), { force: true });
}

/** Write then rename, so a server starting at the same moment never reads half a file. */
function writeJsonAtomically(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temp, file);
}

/** A model on an OpenAI-compatible server on this machine, chosen by the administrator. */
export interface ActiveServer {
  /** "Ollama", "LM Studio", ... */
  name: string;
  base_url: string;
  model: string;
}

function activeServerFile(dataDir: string): string {
  return path.join(modelsDir(dataDir), "active-server.json");
}

export function readActiveServer(dataDir: string): ActiveServer | null {
  try {
    const record = JSON.parse(
      readFileSync(activeServerFile(dataDir), "utf8"),
    ) as Partial<ActiveServer> | null;
    const { name, base_url, model } = record ?? {};
    if (typeof name !== "string" || typeof base_url !== "string" || typeof model !== "string") return null;
    return { name, base_url, model };
  } catch {
    return null;
  }
}

/** Chats use this server's model from now on (over any model file chosen before). */
export function writeActiveServer(dataDir: string, server: ActiveServer): void {
  writeJsonAtomically(activeServerFile(dataDir), server);
}

/** Deletes a downloaded model and any unfinished download of it; clears it as active. */
export function removeStoredModel(dataDir: string, id: string): { removed: boolean; wasActive: boolean } {
  const file = modelFile(dataDir, id);
  const removed = existsSync(file) || existsSync(`${file}.part`);
  rmSync(file, { force: true });
  rmSync(`${file}.part`, { force: true });
  const wasActive = readActiveRecordId(dataDir) === id;
  if (wasActive) rmSync(activeFile(dataDir), { force: true });
  return { removed, wasActive };
}

/** The id in active.json even when its file is gone (readActiveModel would say null). */
function readActiveRecordId(dataDir: string): string | null {
  try {
    const record = JSON.parse(readFileSync(activeFile(dataDir), "utf8")) as Partial<ActiveModel>;
    return typeof record.id === "string" ? record.id : null;
  } catch {
    return null;
  }
}
