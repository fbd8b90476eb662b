import type { ApiError, ErrorCode } from "@hearth/contract";

/**
 * Thrown by every API helper for a non-2xx answer or an unreachable server. `code` is the
 * contract's ErrorCode for Hearth endpoints; better-auth (/api/auth/*) answers with its own
 * upper-case codes (INVALID_EMAIL_OR_PASSWORD, ...), which pass through unchanged.
 */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly issues: ApiError["issues"];
  /** A finer kind of error within `code` (personas answer with one; chat-and-characters §8). */
  readonly errorType: string | undefined;

  constructor(
    status: number,
    code: ApiRequestError["code"],
    message: string,
    issues?: ApiError["issues"],
    errorType?: string,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
    this.errorType = errorType;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

/** A message fit for the screen, whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong. Please try again.";
}

type Query = Record<string, string | number | undefined>;

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

const fallbackCode: Record<number, ErrorCode> = {
  400: "invalidRequest",
  401: "unauthorized",
  403: "forbidden",
  404: "notFound",
  409: "conflict",
  413: "payloadTooLarge",
  429: "rateLimited",
  503: "unavailable",
};

async function toError(response: Response): Promise<ApiRequestError> {
  let payload: Partial<ApiError> & { message?: string; code?: string } = {};
  try {
    payload = (await response.json()) as typeof payload;
  } catch {
    // Not JSON (a proxy's error page, say): fall back to the status below.
  }
  const code = payload.code ?? fallbackCode[response.status] ?? "internal";
  const message =
    payload.message || response.statusText || `The server answered with status ${response.status}.`;
  return new ApiRequestError(response.status, code, message, payload.issues, payload.error_type);
}

/**
 * Calls the Hearth API on the same origin with the session cookie and returns the parsed JSON.
 * The type parameter must be a contract type: the server's shapes are never re-declared here.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", query, body, signal } = options;
  let response: Response;
  try {
    response = await fetch(withQuery(path, query), {
      method,
      credentials: "include",
      headers: {
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    const offline = typeof navigator !== "undefined" && !navigator.onLine;
    throw new ApiRequestError(
      0,
      "unavailable",
      offline ? "You're offline. Check your connection and try again." : "Can't reach the server right now.",
    );
  }
  if (!response.ok) throw await toError(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>(path, { method: "POST", body }),
  put: <T>(path: string, body: unknown) => apiRequest<T>(path, { method: "PUT", body }),
  patch: <T>(path: string, body: unknown) => apiRequest<T>(path, { method: "PATCH", body }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: "DELETE" }),
};
