import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type InferenceModel, int32, type ModelList, permission } from "@hearth/contract";
import { z } from "zod";
import { type Config, ConfigError } from "../../config.ts";
import type { Viewer } from "../accounts/index.ts";
import {
  BUNDLED_MODEL,
  isValidModelId,
  modelFile,
  readActiveModel,
  readActiveServer,
} from "../models/index.ts";

export const BUNDLED_MODEL_ID = BUNDLED_MODEL.id;
export const BUNDLED_MODEL_PATH = BUNDLED_MODEL.path;
const BUNDLED_REPLY_TOKENS = 128;

const backendSpec = z.discriminatedUnion("type", [
  z.object({ type: z.literal("embedded"), path: z.string() }),
  z.object({
    type: z.literal("openai"),
    base_url: z.url(),
    model: z.string(),
    /** Name of the environment variable holding the key, so the file itself holds no secret. */
    api_key_env: z.string().optional(),
  }),
]);
export type BackendSpec = z.infer<typeof backendSpec>;

const registryEntry = z.object({
  id: z.string().regex(/^[\w.:-]+$/),
  name: z.string(),
  tokens: z.union([z.literal(8192), z.literal(16384)]).default(8192),
  permission: permission.nullable().default(null),
  hide_unauthorized: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  context_size: int32(512).optional(),
  /** Most tokens a reply may take on this model, below what a member chose (a tiny model loops on long replies). */
  reply_tokens_max: int32(16).optional(),
  /**
   * Replies a remote server runs at once for this install (its batch size), shared by every
   * Hearth process; LLM_SEQUENCES when unset. An embedded model has LLM_SEQUENCES per process.
   */
  slots: int32(1).optional(),
  backend: backendSpec,
});
export type RegistryEntry = z.infer<typeof registryEntry>;

const registryFile = z.object({
  default: z.string().optional(),
  models: z.array(registryEntry).min(1),
});

export interface ModelRegistry {
  entries: RegistryEntry[];
  defaultId: string;
}

/**
 * The models this install offers: a HEARTH_MODELS_FILE when given, else one model from the
 * LLM_* settings (a remote server, a downloaded or given GGUF, or the bundled demo model).
 */
export function loadRegistry(config: Config): ModelRegistry {
  if (config.llm.modelsFile) {
    const raw = JSON.parse(readFileSync(config.llm.modelsFile, "utf8")) as unknown;
    const parsed = registryFile.safeParse(raw);
    if (!parsed.success) {
      throw new ConfigError(
        `HEARTH_MODELS_FILE ${config.llm.modelsFile}: ${parsed.error.issues[0]?.message}`,
      );
    }
    const ids = new Set(parsed.data.models.map((m) => m.id));
    const defaultId = parsed.data.default ?? parsed.data.models[0]?.id ?? "";
    if (!ids.has(defaultId))
      throw new ConfigError(`HEARTH_MODELS_FILE: default model "${defaultId}" is not listed`);
    return { entries: parsed.data.models, defaultId };
  }
  const entry = singleModel(config);
  return { entries: [entry], defaultId: entry.id };
}

function singleModel(config: Config): RegistryEntry {
  const base = { tokens: 8192 as const, permission: null, hide_unauthorized: false, tags: [] };
  if (config.llm.baseUrl) {
    const model = config.llm.model ?? "default";
    return {
      ...base,
      id: model,
      name: model,
      backend: { type: "openai", base_url: config.llm.baseUrl, model },
    };
  }
  // A model server on this machine that the administrator chose (Admin → Models).
  const server = config.llm.model ? null : readActiveServer(config.dataDir);
  if (server) {
    return {
      ...base,
      id: server.model,
      name: `${server.model} (${server.name})`,
      backend: { type: "openai", base_url: server.base_url, model: server.model },
    };
  }
  const local = resolveLocalModel(config);
  const bundled = path.resolve(local.path) === BUNDLED_MODEL_PATH;
  return {
    ...base,
    id: local.id,
    name: bundled ? "Hearth Tiny (demo)" : local.id,
    // The demo model starts to loop past a few sentences (models/README.md).
    ...(bundled ? { reply_tokens_max: BUNDLED_REPLY_TOKENS } : {}),
    tags: bundled ? ["demo"] : [],
    backend: { type: "embedded", path: local.path },
  };
}

/** LLM_MODEL (a path or a downloaded id), else the model `hearth models pull --use` chose, else the bundled one. */
export function resolveLocalModel(config: Config): { id: string; path: string } {
  const wanted = config.llm.model;
  if (wanted) {
    if (wanted === BUNDLED_MODEL_ID) return { id: wanted, path: BUNDLED_MODEL_PATH };
    if (wanted.endsWith(".gguf")) return { id: path.basename(wanted, ".gguf"), path: path.resolve(wanted) };
    const downloaded = isValidModelId(wanted) ? modelFile(config.dataDir, wanted) : null;
    if (downloaded && existsSync(downloaded)) return { id: wanted, path: downloaded };
    throw new ConfigError(
      `LLM_MODEL=${wanted}: no such model. Download it with \`hearth models pull ${wanted}\`.`,
    );
  }
  const active = readActiveModel(config.dataDir);
  if (active) return active;
  return { id: BUNDLED_MODEL_ID, path: BUNDLED_MODEL_PATH };
}

export function isDemoModel(entry: RegistryEntry): boolean {
  return entry.backend.type === "embedded" && path.resolve(entry.backend.path) === BUNDLED_MODEL_PATH;
}

function mayUse(entry: RegistryEntry, viewer: Viewer | null): boolean {
  return entry.permission === null || Boolean(viewer?.permissions.includes(entry.permission));
}

/**
 * What /api/models answers: hidden models dropped, forbidden ones marked, the stored choice
 * checked, each with the window it really holds (`windowOf`).
 */
export function modelsFor(
  registry: ModelRegistry,
  viewer: Viewer | null,
  windowOf: (entry: RegistryEntry) => number,
  storedChoice?: string,
  /** The viewer's default from the Settings page, if any. */
  viewerDefault?: string,
): ModelList {
  const models: InferenceModel[] = registry.entries
    .filter((e) => mayUse(e, viewer) || !e.hide_unauthorized)
    .map((e) => ({
      id: e.id,
      name: e.name,
      tokens: e.tokens,
      context_tokens: windowOf(e),
      permission: e.permission,
      hide_unauthorized: e.hide_unauthorized,
      tags: e.tags,
      available: mayUse(e, viewer),
      is_demo: isDemoModel(e),
    }));
  return {
    models,
    default_id: registry.defaultId,
    viewer_default_id: resolveModelChoice(registry, viewer, viewerDefault).id,
    selected_id: resolveModelChoice(registry, viewer, storedChoice, viewerDefault).id,
  };
}

/**
 * A stored choice that no longer exists, or that the viewer may not use, falls back to the
 * viewer's own default (the Settings page) under the same check, then to the server's default.
 */
export function resolveModelChoice(
  registry: ModelRegistry,
  viewer: Viewer | null,
  storedChoice?: string,
  viewerDefault?: string,
): RegistryEntry {
  for (const choice of [storedChoice, viewerDefault]) {
    const chosen = registry.entries.find((e) => e.id === choice);
    if (chosen && mayUse(chosen, viewer)) return chosen;
  }
  return registry.entries.find((e) => e.id === registry.defaultId) as RegistryEntry;
}
