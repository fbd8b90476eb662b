import type { ApiError, ErrorCode } from "@hearth/contract";
import { HttpError } from "../../../http/errors.ts";
import type { ImportNames, PreparedChat } from "./prepared.ts";

/** What crosses to the reading thread (reading-thread.ts) and back. */

export interface ReadRequest {
  id: number;
  /** The whole file, in parts, moved to the thread. */
  file: Uint8Array[];
  names: ImportNames;
}

/** A refusal as it crosses: an HttpError's parts, or an unexpected error's message. */
export type WireError =
  | { refusal: true; status: number; code: ErrorCode; message: string; issues?: ApiError["issues"] }
  | { refusal: false; message: string };

export type ReadReply = { id: number; chat: PreparedChat } | { id: number; error: WireError };

export function toWireError(error: unknown): WireError {
  if (error instanceof HttpError) {
    const { status, code, message, issues } = error;
    return { refusal: true, status, code, message, ...(issues ? { issues } : {}) };
  }
  return { refusal: false, message: error instanceof Error ? error.message : String(error) };
}

export function fromWireError(error: WireError): Error {
  if (error.refusal) return new HttpError(error.status, error.code, error.message, error.issues);
  return new Error(`Reading the chat file failed: ${error.message}`);
}
