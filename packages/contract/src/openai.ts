import { z } from "zod";

/**
 * Hearth's own OpenAI-compatible API (/v1), so other tools can use its models. Only the fields
 * Hearth honours are listed; unknown fields are ignored, as OpenAI-compatible servers do.
 */
const contentPart = z.object({ type: z.literal("text"), text: z.string() });

export const openAiChatMessage = z.object({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.union([z.string(), z.array(contentPart)]),
});

const stop = z.union([z.string(), z.array(z.string()).max(8)]).optional();

const samplingFields = {
  model: z.string().optional(),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().min(1).max(32768).optional(),
  max_completion_tokens: z.number().int().min(1).max(32768).optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  top_k: z.number().int().min(1).max(1000).optional(),
  repeat_penalty: z.number().min(0.5).max(2).optional(),
  seed: z.number().int().optional(),
  stop,
};

export const openAiChatRequest = z.object({
  ...samplingFields,
  messages: z.array(openAiChatMessage).min(1).max(10000),
});
export type OpenAiChatRequest = z.infer<typeof openAiChatRequest>;

export const openAiCompletionRequest = z.object({
  ...samplingFields,
  prompt: z.string().max(2_000_000),
});
export type OpenAiCompletionRequest = z.infer<typeof openAiCompletionRequest>;
