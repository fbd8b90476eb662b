import { LlamaCppBackend } from "../../adapters/llama-cpp.ts";
import { OpenAiCompatibleBackend } from "../../adapters/openai-compatible.ts";
import type { Config } from "../../config.ts";
import { type LlmBackend, LlmError } from "../../ports/llm.ts";
import type { ModelState } from "../health/routes.ts";
import { isDemoModel, type ModelRegistry, type RegistryEntry } from "./registry.ts";

/**
 * Holds one backend per registry entry, created on first use (an embedded model loads once and
 * is shared), and reports their state for /api/health.
 */
export class InferenceService {
  private backends = new Map<string, Promise<LlmBackend>>();
  private loaded = new Set<string>();
  private failures = new Map<string, string>();

  constructor(
    private config: Config,
    readonly registry: ModelRegistry,
  ) {}

  entry(id: string): RegistryEntry | undefined {
    return this.registry.entries.find((e) => e.id === id);
  }

  get defaultEntry(): RegistryEntry {
    return this.entry(this.registry.defaultId) as RegistryEntry;
  }

  backend(id: string = this.registry.defaultId): Promise<LlmBackend> {
    const entry = this.entry(id);
    if (!entry) return Promise.reject(new LlmError(`No model "${id}" on this server.`, "bad_request"));
    let pending = this.backends.get(id);
    if (!pending) {
      pending = this.create(entry).then(
        (b) => {
          this.loaded.add(id);
          this.failures.delete(id);
          return b;
        },
        (error: unknown) => {
          // Forget the failure so a later call tries again (e.g. the server came up).
          this.backends.delete(id);
          this.failures.set(id, error instanceof Error ? error.message : String(error));
          throw error;
        },
      );
      this.backends.set(id, pending);
    }
    return pending;
  }

  private async create(entry: RegistryEntry): Promise<LlmBackend> {
    const spec = entry.backend;
    const contextSize = entry.context_size ?? this.config.llm.contextSize;
    if (spec.type === "openai") {
      const apiKey = spec.api_key_env ? process.env[spec.api_key_env] : (this.config.llm.apiKey ?? undefined);
      return new OpenAiCompatibleBackend({ baseUrl: spec.base_url, apiKey, model: spec.model, contextSize });
    }
    return LlamaCppBackend.load({
      modelPath: spec.path,
      contextSize,
      sequences: this.config.llm.sequences,
      threads: this.config.llm.threads,
    });
  }

  /** Starts loading the default model without waiting, so the first chat does not pay for it. */
  warmUp(onError: (error: unknown) => void): void {
    this.backend().catch(onError);
  }

  state(): ModelState {
    const entry = this.defaultEntry;
    const backend = entry.backend.type === "embedded" ? "llama-cpp" : "openai-compatible";
    const demo = isDemoModel(entry) ? " (the bundled demo model: `hearth models pull` gets a real one)" : "";
    const failure = this.failures.get(entry.id);
    if (failure) return { status: "down", backend, name: entry.name, detail: failure };
    if (!this.loaded.has(entry.id))
      return { status: "degraded", backend, name: entry.name, detail: `loading${demo}` };
    return { status: "ok", backend, name: entry.name, ...(demo ? { detail: demo.trim() } : {}) };
  }

  async close(): Promise<void> {
    const all = [...this.backends.values()];
    this.backends.clear();
    await Promise.all(all.map((p) => p.then((b) => b.close()).catch(() => {})));
  }
}
