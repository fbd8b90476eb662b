import {
  type ApiError,
  type EndpointDef,
  type EndpointInput,
  type EndpointResponse,
  type HttpMethod,
  pathOf,
} from "@hearth/contract";
import { ApiRequestError } from "./api.ts";

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 1, or null while the size is unknown. */
  fraction: number | null;
}

const statusMessages: Record<number, string> = {
  413: "That file is too large.",
  415: "That kind of file can't be used here.",
};

/**
 * Sends one file to an endpoint the contract declares with a multipart body: its method, path
 * and answer type come from the declaration (and its query, when it has one).
 */
export function uploadTo<D extends EndpointDef & { body: "multipart" }>(
  def: D,
  params: EndpointInput<D>["params"],
  file: File,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
  query?: EndpointInput<D>["query"],
): Promise<EndpointResponse<D>> {
  const path = pathOf(def.path, params as Record<string, string> | undefined);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const url = search.size ? `${path}?${search}` : path;
  if (!def.idempotencyKey) return uploadFile<EndpointResponse<D>>(url, file, onProgress, signal, def.method);
  return uploadOnce<EndpointResponse<D>>(url, file, onProgress, signal, def.method);
}

/** Retries of one keyed upload whose answer was lost, or that the server is still handling. */
const KEYED_RETRIES = 3;
const RETRY_WAIT_MS = 1000;

/** A new key per user action: 128 random bits (getRandomValues works outside secure contexts too). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * An upload to an endpoint that takes an Idempotency-Key: one key for this action, reused when
 * the answer is lost on the way (no connection) or the server is still handling the first try,
 * so the retry gets the first import's answer instead of importing again.
 */
async function uploadOnce<T>(
  url: string,
  file: File,
  onProgress: ((progress: UploadProgress) => void) | undefined,
  signal: AbortSignal | undefined,
  method: HttpMethod,
): Promise<T> {
  const key = newIdempotencyKey();
  for (let attempt = 0; ; attempt++) {
    try {
      return await uploadFile<T>(url, file, onProgress, signal, method, key);
    } catch (error) {
      const retryable =
        error instanceof ApiRequestError && (error.status === 0 || error.code === "inProgress");
      if (!retryable || attempt >= KEYED_RETRIES || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_WAIT_MS));
    }
  }
}

/**
 * Sends one file as multipart `file` with XMLHttpRequest, since fetch can't report upload
 * progress. Resolves with the parsed JSON answer; rejects with an ApiRequestError carrying the
 * server's { code, message }.
 */
function uploadFile<T>(
  url: string,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
  method: HttpMethod = "POST",
  idempotencyKey?: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    if (idempotencyKey) xhr.setRequestHeader("idempotency-key", idempotencyKey);
    xhr.upload.onprogress = (event) => {
      onProgress?.({
        loaded: event.loaded,
        total: event.total,
        fraction: event.lengthComputable && event.total > 0 ? event.loaded / event.total : null,
      });
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      const error = (body ?? {}) as Partial<ApiError>;
      reject(
        new ApiRequestError(
          xhr.status,
          error.code ?? (xhr.status === 413 ? "payloadTooLarge" : "internal"),
          error.message || statusMessages[xhr.status] || `The upload failed (status ${xhr.status}).`,
          error.issues,
          error.error_type,
        ),
      );
    };
    xhr.onerror = () =>
      reject(new ApiRequestError(0, "unavailable", "The upload didn't reach the server. Please try again."));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
