import { z } from "zod";

/**
 * Image training (issue 16 item 5, features/image-training, decision 021): a LoRA training
 * service at TRAINING_BASE_URL. Without one, every bot counts as ready for images. config.ts
 * spreads these variables into its schema; README.md documents them.
 */
export const trainingEnv = {
  /** The training service's base URL (the job server of decision 021), e.g. `http://trainer:7860`. */
  TRAINING_BASE_URL: z.url().optional(),
  TRAINING_API_KEY: z.string().optional(),
  /** kohya's `max_train_steps` for each bot. */
  TRAINING_STEPS: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** How often unfinished training jobs are polled, in seconds. */
  TRAINING_POLL_S: z.coerce.number().min(1).max(86_400).default(30),
  /** The strength image backends apply a bot's LoRA with. */
  TRAINING_LORA_WEIGHT: z.coerce.number().min(0).max(2).default(0.8),
};

type TrainingEnv = z.output<z.ZodObject<typeof trainingEnv>>;

export type TrainingConfig = {
  baseUrl: string;
  apiKey: string | undefined;
  steps: number;
  pollMs: number;
  loraWeight: number;
} | null;

/** The training service's settings, or null when none is configured. */
export function trainingConfig(e: TrainingEnv): TrainingConfig {
  if (!e.TRAINING_BASE_URL) return null;
  return {
    baseUrl: e.TRAINING_BASE_URL,
    apiKey: e.TRAINING_API_KEY,
    steps: e.TRAINING_STEPS,
    pollMs: e.TRAINING_POLL_S * 1000,
    loraWeight: e.TRAINING_LORA_WEIGHT,
  };
}
