import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/**
 * A lean client for OpenAI-style streaming endpoints: one POST, its server-sent events parsed as
 * they arrive, straight from Node's http module. The official SDK reads the same stream through
 * fetch's web streams and builds several objects per event; at hundreds of simultaneous replies
 * that was a measurable share of a process's CPU (docs/PERFORMANCE.md).
 */

/** The server answered with an error status (after any retries). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status} ${detail}`);
  }
}

/** The server could not be reached, or did not answer in time (after any retries). */
export class ConnectionError extends Error {}

export interface SsePost {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
  /** Until the response starts; a reply that streams is never cut by it. */
  timeoutMs: number;
  /** Attempts after the first, only before a response starts (a reply is never duplicated). */
  maxRetries: number;
}

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** Statuses worth another try, as OpenAI's SDK retries them. */
const RETRIED = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * POSTs `body` and yields each `data:` payload, parsed, until `[DONE]` and the end of the stream.
 * Abort with `signal`: the connection is closed (the server stops generating) and the iteration
 * ends with an error (the caller checks `signal.aborted`).
 */
export async function* postSse(req: SsePost): AsyncGenerator<unknown> {
  const res = await openStream(req);
  res.setEncoding("utf8");
  let pending = "";
  let done = false;
  for await (const chunk of res as AsyncIterable<string>) {
    pending = pending === "" ? chunk : pending + chunk;
    let start = 0;
    let end = pending.indexOf("\n", start);
    while (end !== -1) {
      const line =
        pending.charCodeAt(end - 1) === 13 ? pending.slice(start, end - 1) : pending.slice(start, end);
      start = end + 1;
      end = pending.indexOf("\n", start);
      if (!line.startsWith("data:")) continue;
      const data = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      // Read on to the end after [DONE] (as the SDK does), so the connection can be reused.
      if (data === "[DONE]") done = true;
      if (!done) yield JSON.parse(data);
    }
    pending = start === 0 ? pending : pending.slice(start);
  }
}

async function openStream(req: SsePost): Promise<IncomingMessage> {
  for (let attempt = 0; ; attempt++) {
    let failure: Error;
    let retryAfterMs: number | null = null;
    try {
      const res = await request(req);
      if (res.statusCode === 200) return res;
      const status = res.statusCode ?? 0;
      const detail = await errorDetail(res);
      failure = new HttpStatusError(status, detail);
      if (!RETRIED(status)) throw failure;
      retryAfterMs = retryAfter(res.headers["retry-after"]);
    } catch (error) {
      if (req.signal?.aborted || error instanceof HttpStatusError) throw error;
      failure = new ConnectionError(error instanceof Error ? error.message : String(error));
    }
    if (attempt >= req.maxRetries) throw failure;
    await backoff(
      retryAfterMs ?? Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() / 4),
      req.signal,
    );
  }
}

function request(req: SsePost): Promise<IncomingMessage> {
  const url = new URL(req.url);
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, {
      method: "POST",
      agent: agents[url.protocol as keyof typeof agents],
      headers: {
        ...req.headers,
        accept: "text/event-stream",
        "content-type": "application/json",
        "content-length": Buffer.byteLength(req.body),
      },
      ...(req.signal ? { signal: req.signal } : {}),
    });
    const timer = setTimeout(
      () => outgoing.destroy(new Error(`no answer within ${req.timeoutMs} ms`)),
      req.timeoutMs,
    );
    outgoing.once("response", (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    outgoing.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(req.body);
  });
}

/** The error's message from an OpenAI-style body (`{error: {message}}`), else the body's start. */
async function errorDetail(res: IncomingMessage): Promise<string> {
  let text = "";
  res.setEncoding("utf8");
  for await (const chunk of res as AsyncIterable<string>) {
    if (text.length < 64_000) text += chunk;
  }
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof body.error === "string" ? body.error : (body.error?.message ?? body.message ?? null);
    if (typeof message === "string" && message) return message;
  } catch {
    // Not JSON: its text, shortened.
  }
  return text.trim().slice(0, 300) || res.statusMessage || "no detail";
}

function retryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  const seconds = value ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 60 ? seconds * 1000 : null;
}

function backoff(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
