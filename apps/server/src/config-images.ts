import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * Image generation and its content checks (issue 16, features/content-checks,
 * chats/generation/image-worker.ts). No image model runs inside Hearth: IMAGES_BACKEND names
 * a ComfyUI, Automatic1111/Forge or OpenAI-compatible server. config.ts spreads these variables
 * into its schema and calls `imagesConfig`.
 */
export const imagesEnv = {
  /** `none` (default): the Image button says this server has no image model. */
  IMAGES_BACKEND: z.enum(["none", "comfyui", "a1111", "openai"]).default("none"),
  /** The server's address: `http://comfyui:8188`, `http://a1111:7860`, `https://api.openai.com/v1`. */
  IMAGES_BASE_URL: z.url().optional(),
  /** A bearer key (openai, or a ComfyUI behind a proxy); `user:password` of A1111's `--api-auth`. */
  IMAGES_API_KEY: z.string().optional(),
  /** The checkpoint (ComfyUI's `{{model}}`, A1111's `sd_model_checkpoint`) or the OpenAI model name. */
  IMAGES_MODEL: z.string().optional(),
  /** ComfyUI: a workflow in API format with `{{prompt}}`, `{{seed}}`, … (default: the bundled txt2img). */
  IMAGES_WORKFLOW: z.string().optional(),
  /** Width x height of a picture. */
  IMAGES_SIZE: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/, "IMAGES_SIZE must look like 512x768")
    .default("512x768"),
  IMAGES_NEGATIVE_PROMPT: z
    .string()
    .default("lowres, blurry, bad anatomy, extra fingers, text, watermark, child, teen"),
  /** Pictures the image server makes at once (its slots in the line for the model). */
  IMAGES_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** OpenAI-compatible: sent as `response_format` when set. */
  IMAGES_RESPONSE_FORMAT: z.enum(["b64_json", "url"]).optional(),
  /** An OpenAI-compatible `/moderations` (omni-moderation) that checks prompts and pictures beside the rules. */
  MODERATION_BASE_URL: z.url().optional(),
  MODERATION_API_KEY: z.string().optional(),
  MODERATION_MODEL: z.string().min(1).default("omni-moderation-latest"),
  /** Categories that refuse a prompt or picture, comma-separated. */
  MODERATION_BLOCKED: z.string().default("sexual/minors"),
};

type ImagesEnv = z.output<z.ZodObject<typeof imagesEnv>>;

export interface ImagesConfig {
  backend:
    | { kind: "none" }
    | { kind: "comfyui"; baseUrl: string; apiKey?: string; model: string; workflow: Record<string, never> }
    | { kind: "a1111"; baseUrl: string; apiKey?: string; model: string }
    | {
        kind: "openai";
        baseUrl: string;
        apiKey?: string;
        model: string;
        responseFormat?: "b64_json" | "url";
      };
  width: number;
  height: number;
  negativePrompt: string;
  concurrency: number;
  moderation: { baseUrl: string; apiKey?: string; model: string; blocked: string[] } | null;
}

export const BUNDLED_WORKFLOW = fileURLToPath(new URL("./adapters/comfyui-workflow.json", import.meta.url));

/** The image settings, or a sentence saying what is wrong with them. */
export function imagesConfig(e: ImagesEnv): ImagesConfig | string {
  const [width = 512, height = 768] = e.IMAGES_SIZE.split("x").map(Number);
  const moderation = e.MODERATION_BASE_URL
    ? {
        baseUrl: e.MODERATION_BASE_URL,
        apiKey: e.MODERATION_API_KEY,
        model: e.MODERATION_MODEL,
        blocked: e.MODERATION_BLOCKED.split(",")
          .map((c) => c.trim())
          .filter(Boolean),
      }
    : null;
  const common = {
    width,
    height,
    negativePrompt: e.IMAGES_NEGATIVE_PROMPT,
    concurrency: e.IMAGES_CONCURRENCY,
    moderation,
  };
  if (e.IMAGES_BACKEND === "none") return { backend: { kind: "none" }, ...common };
  if (!e.IMAGES_BASE_URL) return `IMAGES_BACKEND=${e.IMAGES_BACKEND} needs IMAGES_BASE_URL`;
  const base = { baseUrl: e.IMAGES_BASE_URL, apiKey: e.IMAGES_API_KEY };
  if (e.IMAGES_BACKEND === "a1111")
    return { backend: { kind: "a1111", ...base, model: e.IMAGES_MODEL ?? "" }, ...common };
  if (e.IMAGES_BACKEND === "openai")
    return {
      backend: {
        kind: "openai",
        ...base,
        model: e.IMAGES_MODEL ?? "gpt-image-1",
        responseFormat: e.IMAGES_RESPONSE_FORMAT,
      },
      ...common,
    };
  const file = e.IMAGES_WORKFLOW ?? BUNDLED_WORKFLOW;
  if (!existsSync(file)) return `IMAGES_WORKFLOW: ${file} does not exist`;
  let workflow: unknown;
  try {
    workflow = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return `IMAGES_WORKFLOW: ${file} is not JSON`;
  }
  if (
    !workflow ||
    typeof workflow !== "object" ||
    Array.isArray(workflow) ||
    !JSON.stringify(workflow).includes("{{prompt}}")
  )
    return `IMAGES_WORKFLOW: ${file} is not a ComfyUI workflow in API format with a {{prompt}} placeholder`;
  if (!e.IMAGES_MODEL && JSON.stringify(workflow).includes("{{model}}"))
    return "IMAGES_BACKEND=comfyui: IMAGES_MODEL names the checkpoint the workflow loads";
  return {
    backend: {
      kind: "comfyui",
      ...base,
      model: e.IMAGES_MODEL ?? "",
      workflow: workflow as Record<string, never>,
    },
    ...common,
  };
}
