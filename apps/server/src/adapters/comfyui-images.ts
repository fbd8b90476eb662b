import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import { asImage, type GeneratedImage, type ImageBackend, type ImageRequest } from "../ports/images.ts";

/**
 * Images from a ComfyUI server, through its own API: the workflow (API format, as "Save (API
 * Format)" writes it) with `{{prompt}}`, `{{negative_prompt}}`, `{{seed}}`, `{{width}}`,
 * `{{height}}`, `{{model}}`, `{{lora_name}}` and `{{lora_weight}}` substituted, is queued with
 * `POST /prompt` (with this client's id); progress and the end arrive on `GET /ws?clientId=`
 * (`progress`, `executing` with `node: null`, `execution_error`); the pictures are listed by
 * `GET /history/{prompt_id}` and read with `GET /view`. Without a LoRA, the workflow's
 * `LoraLoader` nodes are left out and their users wired to the loader's own model and clip.
 */
export interface ComfyUiOptions {
  baseUrl: string;
  /** The workflow template (API format). */
  workflow: Record<string, WorkflowNode>;
  /** Substituted for `{{model}}` (a checkpoint file name). */
  model: string;
  /** Sent as a bearer key, for a ComfyUI behind an authenticating proxy. */
  apiKey?: string;
  timeoutMs?: number;
}

export interface WorkflowNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta?: { title?: string };
}

type Workflow = Record<string, WorkflowNode>;

/** The workflow with the request's values in place of its `{{…}}` placeholders. */
export function fillWorkflow(template: Workflow, req: ImageRequest, model: string): Workflow {
  const values: Record<string, string | number> = {
    prompt: req.prompt,
    negative_prompt: req.negativePrompt,
    seed: req.seed,
    width: req.width,
    height: req.height,
    model,
    // ComfyUI names LoRAs by file; A1111 and the training feature by bare name (`hearth-<id>`).
    lora_name: req.lora
      ? /\.(safetensors|ckpt|pt)$/.test(req.lora.name)
        ? req.lora.name
        : `${req.lora.name}.safetensors`
      : "",
    lora_weight: req.lora?.weight ?? 0,
  };
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      // A whole-value placeholder keeps its type (a seed stays a number); inside text it is spliced.
      const whole = /^\{\{(\w+)\}\}$/.exec(value);
      if (whole?.[1] && whole[1] in values) return values[whole[1]];
      return value.replace(/\{\{(\w+)\}\}/g, (m, name: string) =>
        name in values ? String(values[name]) : m,
      );
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  const filled = fill(structuredClone(template)) as Workflow;
  return req.lora ? filled : withoutLoras(filled);
}

/** Drops LoraLoader nodes: a reference to output 0 (MODEL) or 1 (CLIP) goes to the loader's own input. */
function withoutLoras(workflow: Workflow): Workflow {
  const loras = new Map(
    Object.entries(workflow).filter(([, node]) => node.class_type.startsWith("LoraLoader")),
  );
  if (loras.size === 0) return workflow;
  const resolve = (ref: unknown): unknown => {
    let current = ref;
    for (let hops = 0; hops < 32; hops++) {
      if (!Array.isArray(current) || typeof current[0] !== "string") return current;
      const lora = loras.get(current[0]);
      if (!lora) return current;
      current = current[1] === 1 ? lora.inputs.clip : lora.inputs.model;
    }
    return current;
  };
  const out: Workflow = {};
  for (const [id, node] of Object.entries(workflow)) {
    if (loras.has(id)) continue;
    out[id] = {
      ...node,
      inputs: Object.fromEntries(Object.entries(node.inputs).map(([k, v]) => [k, resolve(v)])),
    };
  }
  return out;
}

interface HistoryImage {
  filename: string;
  subfolder?: string;
  type?: string;
}

export class ComfyUiImageBackend implements ImageBackend {
  readonly kind = "comfyui";
  private readonly base: string;

  constructor(private readonly opts: ComfyUiOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, "");
  }

  private headers(json = false): Record<string, string> {
    return {
      ...(json ? { "content-type": "application/json" } : {}),
      ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
    };
  }

  async generate(req: ImageRequest, signal?: AbortSignal): Promise<GeneratedImage> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 300_000);
    const cancel = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const clientId = randomUUID();
    // The socket opens first, so the end of a quick run is not missed.
    const socket = new WebSocket(`${this.base.replace(/^http/, "ws")}/ws?clientId=${clientId}`, {
      headers: this.headers(),
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", (e) => reject(new Error(`Could not open ComfyUI's /ws: ${e.message}`)));
      });
      const finished = this.waitForEnd(socket, cancel);
      const queued = await fetch(`${this.base}/prompt`, {
        method: "POST",
        headers: this.headers(true),
        body: JSON.stringify({
          prompt: fillWorkflow(this.opts.workflow, req, this.opts.model),
          client_id: clientId,
        }),
        signal: cancel,
      });
      if (!queued.ok)
        throw new Error(`ComfyUI refused the workflow (${queued.status}): ${await detail(queued)}`);
      const { prompt_id: promptId } = (await queued.json()) as { prompt_id?: string };
      if (!promptId) throw new Error("ComfyUI answered no prompt_id");
      await finished(promptId);
      return await this.firstOutput(promptId, cancel);
    } finally {
      socket.terminate();
    }
  }

  /** Resolves when ComfyUI says the prompt's run ended; messages of other prompts are skipped. */
  private waitForEnd(socket: WebSocket, signal: AbortSignal): (promptId: string) => Promise<void> {
    const early: unknown[] = [];
    let onMessage: ((m: unknown) => void) | null = null;
    socket.on("message", (data, isBinary) => {
      if (isBinary) return; // previews
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (onMessage) onMessage(parsed);
      else early.push(parsed);
    });
    return (promptId) =>
      new Promise<void>((resolve, reject) => {
        const abort = () => reject(signal.reason ?? new Error("aborted"));
        if (signal.aborted) return abort();
        signal.addEventListener("abort", abort, { once: true });
        socket.once("close", () => reject(new Error("ComfyUI closed its /ws before the image was made")));
        onMessage = (m) => {
          const msg = m as {
            type?: string;
            data?: { prompt_id?: string; node?: string | null; exception_message?: string };
          };
          if (msg.data?.prompt_id !== promptId) return;
          if (msg.type === "execution_error")
            reject(new Error(`ComfyUI failed: ${msg.data.exception_message ?? "execution error"}`));
          else if (msg.type === "execution_success" || (msg.type === "executing" && msg.data.node === null))
            resolve();
        };
        for (const m of early.splice(0)) onMessage(m);
      });
  }

  private async firstOutput(promptId: string, signal: AbortSignal): Promise<GeneratedImage> {
    const res = await fetch(`${this.base}/history/${encodeURIComponent(promptId)}`, {
      headers: this.headers(),
      signal,
    });
    if (!res.ok) throw new Error(`ComfyUI's /history answered ${res.status}`);
    const history = (await res.json()) as Record<
      string,
      { outputs?: Record<string, { images?: HistoryImage[] }> }
    >;
    const outputs = history[promptId]?.outputs ?? {};
    const image = Object.values(outputs)
      .flatMap((o) => o.images ?? [])
      .find((i) => (i.type ?? "output") === "output");
    if (!image)
      throw new Error("ComfyUI's run made no output image (does the workflow have a SaveImage node?)");
    const query = new URLSearchParams({
      filename: image.filename,
      subfolder: image.subfolder ?? "",
      type: image.type ?? "output",
    });
    const view = await fetch(`${this.base}/view?${query}`, { headers: this.headers(), signal });
    if (!view.ok) throw new Error(`ComfyUI's /view answered ${view.status}`);
    return asImage(Buffer.from(await view.arrayBuffer()), "ComfyUI");
  }

  async close(): Promise<void> {}
}

async function detail(res: Response): Promise<string> {
  return (await res.text().catch(() => "")).slice(0, 300);
}
