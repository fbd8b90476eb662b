import { z } from "zod";

/**
 * Error codes the API answers with. The spec's own codes (invalidAccess, blockedBotCreator, ...)
 * keep their spelling so a client written against the spec understands them.
 */
export const errorCode = z.enum([
  "invalidRequest",
  "unauthorized",
  "forbidden",
  /** A state-changing request from another site (or with no Origin): refused before it is read. */
  "crossOrigin",
  "notFound",
  "conflict",
  "rateLimited",
  "payloadTooLarge",
  "unsupportedMediaType",
  "internal",
  "unavailable",
  "invalidAccess",
  "blockedBotCreator",
  "imagePromptUnderage",
  "imageContentGuidelines",
  "limitReached",
  "restricted",
  "messageTooLong",
  /** An imported chat holds more messages than one import takes (413). */
  "tooManyMessages",
  /** Sign-in refused for a while after repeated failures (with Retry-After). */
  "tooManyAttempts",
  /** A change refused because an administrator is viewing the site as this user (read-only). */
  "impersonating",
  /** A card payment was declined or could not be taken (402). */
  "paymentFailed",
  /** The waiting room is on and this member has no access yet (429, with Retry-After). */
  "waitingRoom",
  /** The request named a host this server does not answer to (421): DNS rebinding is refused. */
  "unknownHost",
  /** An Idempotency-Key already used for another request to this endpoint (422). */
  "idempotencyKeyReused",
  /** The first request with this Idempotency-Key is still running (409): retry shortly. */
  "inProgress",
]);
export type ErrorCode = z.infer<typeof errorCode>;

export const apiError = z.object({
  code: errorCode,
  message: z.string(),
  /** Field-level problems for invalidRequest, keyed by dotted path. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /**
   * A finer kind of error within `code`, for clients that choose their message by it
   * (chat-and-characters §8, e.g. personas: see `personaErrorType`).
   */
  error_type: z.string().optional(),
});
export type ApiError = z.infer<typeof apiError>;
