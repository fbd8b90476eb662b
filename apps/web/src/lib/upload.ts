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
  return uploadFile<EndpointResponse<D>>(url, file, onProgress, signal, def.method);
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
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
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
