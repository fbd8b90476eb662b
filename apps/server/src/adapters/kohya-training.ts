import {
  TrainingJobGone,
  type TrainingJobSpec,
  type TrainingJobState,
  TrainingRejected,
  type TrainingService,
} from "../ports/training.ts";

/**
 * A LoRA training service over HTTP: the small job protocol of decision 021, served by a thin
 * wrapper around kohya's sd-scripts (`train_network.py`). kohya's trainer is a command line, not
 * a server, and the wrappers around it each invent their own API, so Hearth names one:
 *
 *   POST {base}/jobs             JSON { output_name, trigger_word, max_train_steps, network_module,
 *                                network_dim, network_alpha, resolution,
 *                                images: [{ filename, content_type, caption, data (base64) }] }
 *                                → 201/202 { id, status: "queued", queue_position }
 *   GET  {base}/jobs/{id}        → 200 { id, status: queued|running|succeeded|failed,
 *                                queue_position, progress (0..1), error }; 404 unknown job
 *   GET  {base}/jobs/{id}/output → 200 the LoRA (.safetensors bytes) once succeeded; 409 before
 *
 * Every request carries `Authorization: Bearer {TRAINING_API_KEY}` when a key is set. The field
 * names are train_network.py's own arguments, so the wrapper passes them straight through.
 */
export interface KohyaTrainingOptions {
  baseUrl: string;
  apiKey?: string;
  /** LoRA rank (`network_dim`) and alpha; small is enough for one character. */
  networkDim?: number;
  networkAlpha?: number;
  resolution?: number;
  timeoutMs?: number;
}

interface JobAnswer {
  id?: unknown;
  status?: unknown;
  queue_position?: unknown;
  progress?: unknown;
  error?: unknown;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export class KohyaTrainingService implements TrainingService {
  readonly kind = "kohya";
  private readonly base: string;

  constructor(private readonly opts: KohyaTrainingOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, "");
  }

  private async request(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    return fetch(`${this.base}${path}`, {
      ...init,
      headers: {
        ...(init.body ? { "content-type": "application/json" } : {}),
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  }

  private async fail(res: Response, what: string): Promise<never> {
    const text = (await res.text().catch(() => "")).slice(0, 300);
    throw new Error(`training service ${what}: HTTP ${res.status}${text ? ` ${text}` : ""}`);
  }

  async submit(spec: TrainingJobSpec, signal?: AbortSignal): Promise<{ jobId: string }> {
    const res = await this.request(
      "/jobs",
      {
        method: "POST",
        body: JSON.stringify({
          output_name: spec.name,
          trigger_word: spec.triggerWord,
          max_train_steps: spec.steps,
          network_module: "networks.lora",
          network_dim: this.opts.networkDim ?? 16,
          network_alpha: this.opts.networkAlpha ?? 8,
          resolution: this.opts.resolution ?? 512,
          images: spec.images.map((i) => ({
            filename: i.filename,
            content_type: i.contentType,
            caption: i.caption,
            data: i.data.toString("base64"),
          })),
        }),
      },
      signal,
    );
    if (res.status >= 400 && res.status < 500) {
      const text = (await res.text().catch(() => "")).slice(0, 300);
      throw new TrainingRejected(
        `The training service refused the job (HTTP ${res.status}${text ? ` ${text}` : ""}).`,
      );
    }
    if (!res.ok) await this.fail(res, "refused the job");
    const body = (await res.json()) as JobAnswer;
    if (typeof body.id !== "string" || !body.id) throw new Error("training service answered no job id");
    return { jobId: body.id };
  }

  async status(jobId: string, signal?: AbortSignal): Promise<TrainingJobState> {
    const res = await this.request(`/jobs/${encodeURIComponent(jobId)}`, { method: "GET" }, signal);
    if (res.status === 404) throw new TrainingJobGone(`training service has no job ${jobId}`);
    if (!res.ok) await this.fail(res, "status");
    const body = (await res.json()) as JobAnswer;
    switch (body.status) {
      case "queued":
        return { state: "queued", queuePosition: num(body.queue_position) };
      case "running":
        return { state: "running", progress: num(body.progress) };
      case "succeeded":
        return { state: "succeeded" };
      case "failed":
        return { state: "failed", error: typeof body.error === "string" ? body.error : "training failed" };
      default:
        throw new Error(`training service answered an unknown status ${JSON.stringify(body.status)}`);
    }
  }

  async result(jobId: string, signal?: AbortSignal): Promise<Buffer> {
    const res = await this.request(`/jobs/${encodeURIComponent(jobId)}/output`, { method: "GET" }, signal);
    if (res.status === 404) throw new TrainingJobGone(`training service has no job ${jobId}`);
    if (!res.ok) await this.fail(res, "output");
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length === 0) throw new Error("training service answered an empty LoRA");
    return bytes;
  }
}
