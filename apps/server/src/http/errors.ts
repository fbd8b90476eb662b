import type { ApiError, ErrorCode } from "@hearth/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { describeError } from "../lib/describe-error.ts";

/** What an HttpError may carry beyond its status, code and message. */
export interface HttpErrorDetails {
  issues?: ApiError["issues"];
  /** A finer kind within `code` (answered as `error_type`), e.g. `default_persona_delete`. */
  errorType?: string;
  /** Seconds for a `Retry-After` header (429 answers that say when to ask again). */
  retryAfter?: number;
}

/** An error with a status and a contract code; the only kind route code throws on purpose. */
export class HttpError extends Error {
  readonly issues?: ApiError["issues"];
  readonly errorType?: string;
  readonly retryAfter?: number;

  /** `details` is the field-level issues, or an object with issues and/or an error type. */
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    details?: ApiError["issues"] | HttpErrorDetails,
  ) {
    super(message);
    const d: HttpErrorDetails = Array.isArray(details) ? { issues: details } : (details ?? {});
    if (d.issues) this.issues = d.issues;
    if (d.errorType) this.errorType = d.errorType;
    if (d.retryAfter !== undefined) this.retryAfter = d.retryAfter;
  }
}

export const notFound = (what = "Not found") => new HttpError(404, "notFound", what);
export const forbidden = (message = "You are not allowed to do this.") =>
  new HttpError(403, "forbidden", message);
export const unauthorized = (message = "Please sign in.") => new HttpError(401, "unauthorized", message);

export function invalidRequest(error: ZodError): HttpError {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0];
  const message = first
    ? first.path
      ? `${first.path}: ${first.message}`
      : first.message
    : "Invalid request";
  return new HttpError(400, "invalidRequest", message, issues);
}

/** Maps fastify's own client errors (bad JSON, wrong content type, too large) to contract codes. */
function fromFastifyError(error: FastifyError): HttpError | null {
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  if (status === 413) return new HttpError(413, "payloadTooLarge", "The request is too large.");
  if (status === 415)
    return new HttpError(415, "unsupportedMediaType", "This content type is not accepted here.");
  if (status === 429) return new HttpError(429, "rateLimited", "Too many requests. Please slow down.");
  if (status === 404) return notFound();
  return new HttpError(status, "invalidRequest", error.message);
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const http =
      error instanceof HttpError
        ? error
        : error instanceof ZodError
          ? invalidRequest(error)
          : fromFastifyError(error);
    if (http) {
      const body: ApiError = {
        code: http.code,
        message: http.message,
        ...(http.issues ? { issues: http.issues } : {}),
        ...(http.errorType ? { error_type: http.errorType } : {}),
      };
      if (http.retryAfter !== undefined) reply.header("retry-after", String(http.retryAfter));
      return reply.status(http.status).send(body);
    }
    // Unexpected: log where it broke for operators (kind, first line and stack, never a failed
    // query's parameters, which can hold user text), and tell the client nothing internal.
    req.log.error(
      {
        cause: describeError(error),
        stack: error.stack
          ?.split("\n")
          .filter((line) => line.trimStart().startsWith("at "))
          .slice(0, 8)
          .join("\n"),
      },
      "unhandled error",
    );
    const body: ApiError = {
      code: "internal",
      message: "Something went wrong on our side. Please try again.",
    };
    return reply.status(500).send(body);
  });
}
