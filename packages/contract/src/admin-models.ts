import { z } from "zod";

/**
 * The operator's model management (/admin/models): which model the server chats with, the models
 * on disk, the catalog Hearth can download by name, and the one download that may be running.
 * No shape here carries a filesystem path: the server keeps those to itself.
 */

export const modelHealthStatus = z.enum(["ok", "degraded", "down"]);
export type ModelHealthStatus = z.infer<typeof modelHealthStatus>;

/** The model new conversations use now, with the same state /api/health reports. */
export const adminActiveModel = z.object({
  id: z.string(),
  name: z.string(),
  /** "llama-cpp" (embedded) or "openai-compatible" (a remote server). */
  backend: z.string(),
  /** The bundled tiny demo model: the page says so and offers a real one. */
  is_demo: z.boolean(),
  state: z.object({
    status: modelHealthStatus,
    /** What the status means ("loading", a load error, ...), or null when there is nothing to add. */
    detail: z.string().nullable(),
  }),
});
export type AdminActiveModel = z.infer<typeof adminActiveModel>;

/** A model on this server's disk: the bundled one and every finished download. */
export const adminInstalledModel = z.object({
  id: z.string(),
  name: z.string(),
  /** File size in bytes (0 when the bundled file is missing from the installation). */
  bytes: z.number().int().nonnegative(),
  /** Where it came from, in words ("Ships with Hearth", "Downloaded from a URL", ...). */
  description: z.string(),
  bundled: z.boolean(),
  /** The model `active.json` names, i.e. the one the server loads. */
  active: z.boolean(),
});
export type AdminInstalledModel = z.infer<typeof adminInstalledModel>;

/** A well-known model Hearth can download by id. */
export const adminCatalogModel = z.object({
  id: z.string(),
  name: z.string(),
  /** Approximate download size, for display. */
  approx_bytes: z.number().int().nonnegative(),
  context_tokens: z.union([z.literal(8192), z.literal(16384)]),
  licence: z.string(),
  downloaded: z.boolean(),
  /** Bytes of an unfinished download that the next download of this model resumes, else null. */
  partial_bytes: z.number().int().nonnegative().nullable(),
});
export type AdminCatalogModel = z.infer<typeof adminCatalogModel>;

export const modelDownloadStatus = z.enum(["running", "done", "failed", "cancelled"]);
export type ModelDownloadStatus = z.infer<typeof modelDownloadStatus>;

/** The current (or last) download. One runs at a time, in the server process. */
export const modelDownload = z.object({
  /** The id the model is stored under once it is downloaded. */
  id: z.string(),
  name: z.string(),
  status: modelDownloadStatus,
  received_bytes: z.number().int().nonnegative(),
  /** Size of the whole file when the host says, else null. */
  total_bytes: z.number().int().nonnegative().nullable(),
  /** Recent transfer speed (0 before the first second of data, and once it has stopped). */
  bytes_per_second: z.number().nonnegative(),
  /** Why it failed, in words a person can act on; null unless `failed`. */
  error: z.string().nullable(),
  /** A one-line remark: resuming, verifying, what a cancel kept. */
  note: z.string().nullable(),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
});
export type ModelDownload = z.infer<typeof modelDownload>;

/** GET /api/admin/models */
export const adminModels = z.object({
  active: adminActiveModel,
  installed: z.array(adminInstalledModel),
  catalog: z.array(adminCatalogModel),
  download: modelDownload.nullable(),
  /**
   * Set when the operator's settings (HEARTH_MODELS_FILE, LLM_BASE_URL, LLM_MODEL) choose the
   * models: the active model cannot be changed here then, and this says why. Null otherwise.
   */
  settings_lock: z.string().nullable(),
  /** The one command that downloads a real model and switches to it (shown while the demo model runs). */
  real_model_command: z.string(),
});
export type AdminModels = z.infer<typeof adminModels>;

/** An OpenAI-compatible server found on this machine (Ollama, LM Studio, llama.cpp, vLLM). */
export const localServer = z.object({
  name: z.string(),
  base_url: z.string(),
  /** The chat models it serves. */
  models: z.array(z.string()),
});
export type LocalServer = z.infer<typeof localServer>;

/** GET /api/admin/models/local-servers: looked for when asked, never used unasked. */
export const localServerList = z.object({ servers: z.array(localServer) });
export type LocalServerList = z.infer<typeof localServerList>;

/** PUT /api/admin/models/local-server: chat with this model of a server found on this machine. */
export const localServerChoice = z.object({
  base_url: z.string().trim().max(300),
  model: z.string().trim().min(1).max(200),
});
export type LocalServerChoice = z.input<typeof localServerChoice>;

/** A model id: it becomes a file name, so a safe lowercase alphabet (".gguf" is dropped). */
export const storedModelId = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.gguf$/, ""))
  .pipe(
    z
      .string()
      .min(1, "Enter a name for the model")
      .max(64, "Use at most 64 characters")
      .regex(
        /^[a-z0-9][a-z0-9._-]*$/,
        "Use letters, digits, '.', '_' or '-', starting with a letter or digit",
      ),
  );

/** POST /api/admin/models/downloads: a catalog id, or an http(s) URL with an optional name. */
export const modelDownloadRequest = z
  .object({
    id: z.string().trim().toLowerCase().min(1).max(64).optional(),
    url: z
      .string()
      .trim()
      .max(2048, "The URL is too long")
      .pipe(z.url({ protocol: /^https?$/, error: "Enter an http:// or https:// address" }))
      .optional(),
    /** The id to store a URL download under; derived from the URL's file name when left out. */
    name: storedModelId.optional(),
  })
  .refine((body) => (body.id === undefined) !== (body.url === undefined), {
    message: "Give either a catalog model id or a URL",
  })
  .refine((body) => body.name === undefined || body.url !== undefined, {
    message: "A name goes with a URL download only",
    path: ["name"],
  });
export type ModelDownloadRequest = z.input<typeof modelDownloadRequest>;

/** PUT /api/admin/models/active */
export const activeModelChange = z.object({ id: z.string().trim().toLowerCase().min(1).max(64) });
export type ActiveModelChange = z.input<typeof activeModelChange>;
