import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type {
  AdminActiveModel,
  AdminCatalogModel,
  AdminInstalledModel,
  ModelDownload,
} from "@hearth/contract";
import type { Config } from "../../config.ts";
import { type InferenceService, isDemoModel, type RegistryEntry } from "../inference/index.ts";
import { BUNDLED_MODEL, CATALOG, findCatalogModel, REAL_MODEL_COMMAND } from "./catalog.ts";
import { listStoredModels } from "./store.ts";

/**
 * What the admin models page shows, built from the running InferenceService and the models
 * directory. Filesystem paths stay on the server: the page gets ids, names and sizes.
 */

type ModelsConfig = Pick<Config, "dataDir" | "llm">;

/**
 * Why the active model cannot be changed from the page (the operator's settings choose the
 * models), or null when it can.
 */
export function settingsLock(config: ModelsConfig): string | null {
  const why = config.llm.modelsFile
    ? "a models file (HEARTH_MODELS_FILE)"
    : config.llm.baseUrl
      ? "a model server address (LLM_BASE_URL)"
      : config.llm.model
        ? "the LLM_MODEL setting"
        : null;
  return why
    ? `Models are configured by the operator's settings: ${why} chooses them, so the active model can't be changed here. Change that setting and restart Hearth instead.`
    : null;
}

export function activeModel(inference: InferenceService): AdminActiveModel {
  const entry = inference.defaultEntry;
  const state = inference.state();
  return {
    id: entry.id,
    name: entry.name,
    backend: state.backend,
    is_demo: isDemoModel(entry),
    state: { status: state.status, detail: state.detail ? withoutPaths(state.detail) : null },
  };
}

/** The bundled model (when its file is there) and every finished download, bundled first. */
export function installedModels(config: ModelsConfig, inference: InferenceService): AdminInstalledModel[] {
  const running = runningFile(inference.defaultEntry);
  const installed: AdminInstalledModel[] = [];
  if (existsSync(BUNDLED_MODEL.path)) {
    installed.push({
      id: BUNDLED_MODEL.id,
      name: "Hearth Tiny (demo)",
      bytes: statSync(BUNDLED_MODEL.path).size,
      description: "Ships with Hearth: a tiny demo model for trying Hearth out.",
      bundled: true,
      active: running === path.resolve(BUNDLED_MODEL.path),
    });
  }
  for (const model of listStoredModels(config.dataDir)) {
    if (model.partial) continue;
    const entry = findCatalogModel(model.id);
    installed.push({
      id: model.id,
      name: entry?.displayName ?? model.id,
      bytes: model.bytes,
      description: entry
        ? `Downloaded from the catalog. Licence: ${entry.licence}.`
        : "Downloaded from a URL.",
      bundled: false,
      active: running === path.resolve(model.path),
    });
  }
  return installed;
}

export function catalogModels(config: ModelsConfig): AdminCatalogModel[] {
  const stored = listStoredModels(config.dataDir);
  return CATALOG.map((entry) => {
    const downloaded = stored.some((m) => m.id === entry.id && !m.partial);
    const partial = stored.find((m) => m.id === entry.id && m.partial);
    return {
      id: entry.id,
      name: entry.displayName,
      approx_bytes: Math.round(entry.approxBytes),
      context_tokens: entry.contextTokens,
      licence: entry.licence,
      downloaded,
      partial_bytes: !downloaded && partial ? partial.bytes : null,
    };
  });
}

export function overview(config: ModelsConfig, inference: InferenceService, download: ModelDownload | null) {
  return {
    active: activeModel(inference),
    installed: installedModels(config, inference),
    catalog: catalogModels(config),
    download,
    settings_lock: settingsLock(config),
    real_model_command: REAL_MODEL_COMMAND,
  };
}

/** The GGUF the running default model was loaded from, or null for a remote model. */
function runningFile(entry: RegistryEntry): string | null {
  return entry.backend.type === "embedded" ? path.resolve(entry.backend.path) : null;
}

/** Absolute paths in a message (a load error names the file) shortened to the file's name. */
export function withoutPaths(message: string): string {
  return message.replace(/(?<![\w:/.~-])\/(?:[^\s/'"`:]+\/)*([^\s/'"`:]+)/g, "$1");
}
