import { z } from "zod";
import { permission } from "./permissions.ts";

/** An inference model as the client sees it (chat-and-characters §3, "Inference model"). */
export const inferenceModel = z.object({
  id: z.string(),
  name: z.string(),
  /** Context class: 8K or 16K models (decides what 8k_context grants). */
  tokens: z.union([z.literal(8192), z.literal(16384)]),
  permission: permission.nullable(),
  hide_unauthorized: z.boolean(),
  tags: z.array(z.string()),
  /** Tokens one conversation really gets on this model (prompt and reply): its own window, capped by the server's setting. */
  context_tokens: z.number().int().positive(),
  /** False when the viewer lacks the model's permission: shown disabled. */
  available: z.boolean(),
  /** The bundled demo model: the client says so and offers a real one. */
  is_demo: z.boolean(),
});
export type InferenceModel = z.infer<typeof inferenceModel>;

export const modelList = z.object({
  models: z.array(inferenceModel),
  /** The server's default model. */
  default_id: z.string(),
  /**
   * What the viewer's chats use when this device chose nothing: their Settings page default
   * while it is still offered to them, else `default_id`.
   */
  viewer_default_id: z.string(),
  /** The viewer's stored choice after checking it still exists and is allowed; else `viewer_default_id`. */
  selected_id: z.string(),
});
export type ModelList = z.infer<typeof modelList>;

export const modelListQuery = z.object({ selected: z.string().max(200).optional() });
