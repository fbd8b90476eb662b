import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for a LoRA training job server speaking decision 021's protocol (the one
 * `adapters/kohya-training.ts` uses): `POST /jobs`, `GET /jobs/{id}`, `GET /jobs/{id}/output`.
 * It trains nothing: a test moves each job with `start`, `succeed` and `fail`, and the output is
 * a small safetensors file (an 8-byte header length, a JSON header, the tensor bytes). It checks
 * the bearer key (401) and the job body (400), and records every submission.
 */
export interface StandinSubmission {
  id: string;
  output_name: string;
  trigger_word: string;
  max_train_steps: number;
  network_module: string;
  network_dim: number;
  images: { filename: string; content_type: string; caption: string; bytes: Buffer }[];
  authorization: string | undefined;
}

type StandinJob = {
  submission: StandinSubmission;
  status: "queued" | "running" | "succeeded" | "failed";
  progress: number;
  error: string | null;
  output: Buffer | null;
};

/** A minimal safetensors file: one tensor whose bytes name the job, so each LoRA differs. */
export function fakeSafetensors(name: string): Buffer {
  const data = Buffer.from(name.padEnd(16, "\0").slice(0, 16));
  const header = Buffer.from(
    JSON.stringify({
      __metadata__: { ss_output_name: name, ss_network_module: "networks.lora" },
      "lora_unet.weight": { dtype: "U8", shape: [16], data_offsets: [0, 16] },
    }),
  );
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, data]);
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body;
}

function parseSubmission(raw: string, authorization: string | undefined): StandinSubmission | string {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return "body is not JSON";
  }
  const str = (k: string) => (typeof body[k] === "string" && body[k] ? (body[k] as string) : null);
  const int = (k: string) =>
    Number.isInteger(body[k]) && (body[k] as number) > 0 ? (body[k] as number) : null;
  const outputName = str("output_name");
  const trigger = str("trigger_word");
  const steps = int("max_train_steps");
  const dim = int("network_dim");
  if (!outputName || !trigger || !steps || !dim)
    return "output_name, trigger_word, max_train_steps, network_dim";
  if (!Array.isArray(body.images) || body.images.length === 0) return "images: at least one";
  const images: StandinSubmission["images"] = [];
  for (const image of body.images as Record<string, unknown>[]) {
    if (typeof image.data !== "string" || typeof image.caption !== "string") return "images[].data, caption";
    const bytes = Buffer.from(image.data, "base64");
    if (bytes.length === 0) return "images[].data: empty";
    images.push({
      filename: String(image.filename),
      content_type: String(image.content_type),
      caption: image.caption,
      bytes,
    });
  }
  return {
    id: randomUUID(),
    output_name: outputName,
    trigger_word: trigger,
    max_train_steps: steps,
    network_module: String(body.network_module),
    network_dim: dim,
    images,
    authorization,
  };
}

export async function trainingStandin(opts: { apiKey?: string } = {}) {
  const jobs = new Map<string, StandinJob>();
  const order: string[] = [];
  const waiters: ((s: StandinSubmission) => void)[] = [];
  const submissions: StandinSubmission[] = [];
  const queuePosition = (id: string) =>
    order.filter((j) => jobs.get(j)?.status === "queued").indexOf(id) + 1 || null;

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        return json(res, 401, { error: "bad key" });
      }
      const url = new URL(req.url ?? "/", "http://standin");
      const parts = url.pathname.split("/").filter(Boolean);
      if (req.method === "POST" && parts.length === 1 && parts[0] === "jobs") {
        const parsed = parseSubmission(await readBody(req), req.headers.authorization);
        if (typeof parsed === "string") return json(res, 400, { error: parsed });
        jobs.set(parsed.id, { submission: parsed, status: "queued", progress: 0, error: null, output: null });
        order.push(parsed.id);
        submissions.push(parsed);
        for (const w of waiters.splice(0)) w(parsed);
        return json(res, 202, { id: parsed.id, status: "queued", queue_position: queuePosition(parsed.id) });
      }
      const job = parts[0] === "jobs" && parts[1] ? jobs.get(parts[1]) : undefined;
      if (req.method !== "GET" || !job || parts.length > 3) return json(res, 404, { error: "no such job" });
      if (parts[2] === "output") {
        if (job.status !== "succeeded" || !job.output) return json(res, 409, { error: "not finished" });
        return res.writeHead(200, { "content-type": "application/octet-stream" }).end(job.output);
      }
      if (parts.length === 3) return json(res, 404, { error: "not found" });
      return json(res, 200, {
        id: job.submission.id,
        status: job.status,
        queue_position: job.status === "queued" ? queuePosition(job.submission.id) : null,
        progress: job.status === "running" ? job.progress : null,
        error: job.error,
      });
    })().catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (id: string) => {
    const job = jobs.get(id);
    if (!job) throw new Error(`stand-in has no job ${id}`);
    return job;
  };

  return {
    url,
    submissions,
    /** Resolves with the next job submitted after this call. */
    nextSubmission: (): Promise<StandinSubmission> => new Promise((resolve) => waiters.push(resolve)),
    start(id: string, progress = 0.5) {
      Object.assign(get(id), { status: "running", progress });
    },
    succeed(id: string): Buffer {
      const job = get(id);
      const output = fakeSafetensors(job.submission.output_name);
      Object.assign(job, { status: "succeeded", output, progress: 1 });
      return output;
    },
    fail(id: string, error: string) {
      Object.assign(get(id), { status: "failed", error });
    },
    /** Forgets a job, as a restarted service would. */
    forget(id: string) {
      jobs.delete(id);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TrainingStandin = Awaited<ReturnType<typeof trainingStandin>>;
