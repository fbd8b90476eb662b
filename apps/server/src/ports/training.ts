/**
 * Per-bot image training (issue 16 item 5): a LoRA training service learns what a bot looks
 * like from its reference images, so image generation can draw that bot. Training runs for
 * minutes to days elsewhere; Hearth submits a job, polls it, and fetches the resulting LoRA file.
 * `adapters/kohya-training.ts` speaks the HTTP protocol of decision 021 (a thin job server around
 * kohya's sd-scripts `train_network.py`).
 */

/** One reference image of the bot, with the caption it is trained under. */
export interface TrainingImage {
  filename: string;
  contentType: string;
  data: Buffer;
  /** Starts with the trigger word, so prompts that name it summon the bot. */
  caption: string;
}

export interface TrainingJobSpec {
  /** The LoRA's file name without extension (kohya's `output_name`). */
  name: string;
  /** The token prompts use to call the bot up (kohya's class token in the captions). */
  triggerWord: string;
  /** kohya's `max_train_steps`. */
  steps: number;
  images: TrainingImage[];
}

export type TrainingJobState =
  | { state: "queued"; queuePosition: number | null }
  | { state: "running"; progress: number | null }
  | { state: "succeeded" }
  | { state: "failed"; error: string };

export interface TrainingService {
  /** Names the service in logs (`kohya`). */
  readonly kind: string;
  /** Submits a job; answers the service's id for it. */
  submit(spec: TrainingJobSpec, signal?: AbortSignal): Promise<{ jobId: string }>;
  status(jobId: string, signal?: AbortSignal): Promise<TrainingJobState>;
  /** The trained LoRA (a `.safetensors` file) of a succeeded job. */
  result(jobId: string, signal?: AbortSignal): Promise<Buffer>;
}

/** A job the service no longer knows (404): Hearth marks the request failed rather than polling forever. */
export class TrainingJobGone extends Error {
  override readonly name = "TrainingJobGone";
}

/** The service refused the job itself (a 4xx on submit): asking again would be refused again. */
export class TrainingRejected extends Error {
  override readonly name = "TrainingRejected";
}
