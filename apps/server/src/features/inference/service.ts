import { ggufTrainedWindow, LlamaCppBackend } from "../../adapters/llama-cpp.ts";
import { OpenAiCompatibleBackend } from "../../adapters/openai-compatible.ts";
import type { Config } from "../../config.ts";
import { withTimeout } from "../../lib/with-timeout.ts";
import { type LlmBackend, LlmError } from "../../ports/llm.ts";
import type { ModelState } from "../health/index.ts";
import { isDemoModel, type ModelRegistry, type RegistryEntry } from "./registry.ts";

/**
 * Holds one backend per registry entry, created on first use (an embedded model loads once and
 * is shared), and reports their state for /api/health.
 */
export class InferenceService {
  private backends = new Map<string, Promise<LlmBackend>>();
  private trainedWindows = new Map<string, Promise<number | null>>();
  private loaded = new Set<string>();
  private failures = new Map<string, string>();
  private current: ModelRegistry;
  /** Backends of earlier registries (see reload), each closing once it is idle. */
  private retiring = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private config: Config,
    registry: ModelRegistry,
  ) {
    this.current = registry;
  }

  /** The models on offer now; reload() replaces it. */
  get registry(): ModelRegistry {
    return this.current;
  }

  entry(id: string): RegistryEntry | undefined {
    return this.registry.entries.find((e) => e.id === id);
  }

  get defaultEntry(): RegistryEntry {
    return this.entry(this.registry.defaultId) as RegistryEntry;
  }

  /**
   * Whether this process may run the model: an `api` process never loads an embedded one (its
   * replies run on workers), so work that only counts tokens settles for an estimate there.
   */
  loadsHere(id: string = this.registry.defaultId): boolean {
    return this.config.role !== "api" || this.entry(id)?.backend.type !== "embedded";
  }

  backend(id: string = this.registry.defaultId): Promise<LlmBackend> {
    const entry = this.entry(id);
    if (!entry) return Promise.reject(new LlmError(`No model "${id}" on this server.`, "bad_request"));
    if (!this.loadsHere(id)) {
      return Promise.reject(
        new LlmError(
          "This process only serves requests (HEARTH_ROLE=api): models run on workers.",
          "unavailable",
        ),
      );
    }
    let pending = this.backends.get(id);
    if (!pending) {
      // A backend retired by reload() while loading no longer speaks for its id.
      const current = () => this.backends.get(id) === pending;
      pending = this.create(entry).then(
        (b) => {
          if (current()) {
            this.loaded.add(id);
            this.failures.delete(id);
          }
          return b;
        },
        (error: unknown) => {
          // Forget the failure so a later call tries again (e.g. the server came up).
          if (current()) {
            this.backends.delete(id);
            this.failures.set(id, error instanceof Error ? error.message : String(error));
          }
          throw error;
        },
      );
      this.backends.set(id, pending);
    }
    return pending;
  }

  /**
   * Tokens a conversation really gets on each model: the configured context, capped for an
   * embedded model by the window its file was trained on (read from the file, not loaded).
   */
  async windows(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const entry of this.registry.entries) {
      const configured = this.configuredContext(entry);
      if (entry.backend.type !== "embedded") {
        out.set(entry.id, configured);
        continue;
      }
      const path = entry.backend.path;
      let trained = this.trainedWindows.get(path);
      if (!trained) {
        trained = ggufTrainedWindow(path);
        this.trainedWindows.set(path, trained);
      }
      out.set(entry.id, Math.min(configured, (await trained) ?? configured));
    }
    return out;
  }

  private configuredContext(entry: RegistryEntry): number {
    return entry.context_size ?? this.config.llm.contextSize;
  }

  private async create(entry: RegistryEntry): Promise<LlmBackend> {
    const spec = entry.backend;
    const contextSize = this.configuredContext(entry);
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

  /**
   * The default model if it is loaded or loads within `waitMs`, else null: for work that can
   * settle for an estimate (token counts when saving or pricing a character) rather than wait.
   */
  readyDefault(waitMs = READY_WAIT_MS): Promise<LlmBackend | null> {
    return withTimeout(this.backend(), waitMs).catch(() => null);
  }

  /** Starts loading the default model without waiting, so the first chat does not pay for it. */
  warmUp(onError: (error: unknown) => void): void {
    this.backend().catch(onError);
  }

  state(): ModelState {
    const entry = this.defaultEntry;
    const backend = entry.backend.type === "embedded" ? "llama-cpp" : "openai-compatible";
    const demo = isDemoModel(entry) ? " (the bundled demo model: `hearth models pull` gets a real one)" : "";
    if (!this.loadsHere(entry.id))
      return { status: "ok", backend, name: entry.name, detail: "runs on workers" };
    const failure = this.failures.get(entry.id);
    if (failure) return { status: "down", backend, name: entry.name, detail: failure };
    if (!this.loaded.has(entry.id))
      return { status: "degraded", backend, name: entry.name, detail: `loading${demo}` };
    return { status: "ok", backend, name: entry.name, ...(demo ? { detail: demo.trim() } : {}) };
  }

  /**
   * Switches to another registry without a restart: new generations use its models at once.
   * Backends whose entry is unchanged are kept; the others are retired and closed once idle (no
   * sequence generating), never under a running generation.
   */
  reload(registry: ModelRegistry): void {
    const next = new Map(registry.entries.map((e) => [e.id, e]));
    const previous = this.current;
    this.current = registry;
    for (const [id, pending] of [...this.backends]) {
      const before = previous.entries.find((e) => e.id === id);
      const after = next.get(id);
      if (before && after && sameBackend(before, after)) continue;
      this.backends.delete(id);
      this.loaded.delete(id);
      this.retire(pending);
    }
    for (const id of [...this.failures.keys()]) if (!next.has(id)) this.failures.delete(id);
    for (const id of [...this.loaded]) if (!next.has(id)) this.loaded.delete(id);
  }

  /** Resolves once every backend retired by reload() is closed. */
  async whenRetired(): Promise<void> {
    while (this.retiring.size > 0) await Promise.all([...this.retiring]);
  }

  private retire(pending: Promise<LlmBackend>): void {
    const done = (async () => {
      let backend: LlmBackend;
      try {
        backend = await pending;
      } catch {
        return; // It never loaded: nothing to close.
      }
      // Idle twice in a row, a check apart: a caller that has just been handed the backend has
      // taken its sequence by the second look.
      for (let idleChecks = 0; !this.closed; ) {
        idleChecks = busySequences(backend) === 0 ? idleChecks + 1 : 0;
        if (idleChecks >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, RETIRE_CHECK_MS).unref());
      }
      // Closing frees memory; a backend that fails to close has nothing left to lose.
      await backend.close().catch(() => {});
    })();
    this.retiring.add(done);
    void done.finally(() => this.retiring.delete(done));
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.backends.values()];
    this.backends.clear();
    // Shutting down: a backend that never loaded, or fails to close, must not stop the others.
    await Promise.all(all.map((p) => p.then((b) => b.close()).catch(() => {})));
    await this.whenRetired();
  }
}

/** How long work that can estimate instead waits for the default model to load. */
const READY_WAIT_MS = 5000;
/** How often a retired backend is checked for idleness. */
const RETIRE_CHECK_MS = 250;

/** Sequences generating now: the embedded engine counts them; a remote server holds none here. */
function busySequences(backend: LlmBackend): number {
  const busy = (backend as { busySequences?: unknown }).busySequences;
  return typeof busy === "number" ? busy : 0;
}

function sameBackend(a: RegistryEntry, b: RegistryEntry): boolean {
  return JSON.stringify([a.backend, a.context_size]) === JSON.stringify([b.backend, b.context_size]);
}
