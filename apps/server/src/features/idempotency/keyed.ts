import { createHash } from "node:crypto";
import type { EndpointDef } from "@hearth/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import {
  claimKey,
  deleteExpiredKeys,
  type KeyId,
  readKey,
  recordAnswer,
  releaseKey,
  retakeKey,
} from "./queries.ts";

/** The header a client names one action with, so a retry of it is answered, not run again. */
export const IDEMPOTENCY_HEADER = "idempotency-key";
/** A key and its answer are kept this long. */
export const IDEMPOTENCY_KEPT_S = 24 * 60 * 60;
/** A first request still unanswered after this long was lost with its process: a retry runs it again. */
export const IDEMPOTENCY_ABANDONED_S = 10 * 60;
/** 8 to 200 printable ASCII characters (a UUID, or any random token). */
const KEY_SHAPE = /^[\x20-\x7e]{8,200}$/;

/** The request's key, or null without one; a malformed one is refused (400). */
export function idempotencyKeyOf(req: FastifyRequest): string | null {
  const given = req.headers[IDEMPOTENCY_HEADER];
  if (given === undefined) return null;
  if (typeof given !== "string" || !KEY_SHAPE.test(given) || given.trim() !== given)
    throw new HttpError(
      400,
      "invalidRequest",
      "The Idempotency-Key header must be 8 to 200 printable characters, without spaces at either end.",
    );
  return given;
}

/** SHA-256 of the request's parts (each length-prefixed, so no two requests share one). */
function hashOf(parts: (string | Buffer)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) {
    const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
    hash.update(`${bytes.length}:`).update(bytes);
  }
  return hash.digest("hex");
}

export interface KeyedRequest {
  db: Db;
  req: FastifyRequest;
  reply: FastifyReply;
  userId: string;
  def: Pick<EndpointDef, "method" | "path" | "status">;
  /** What was sent (the file, its name, the query): the same key with other parts is refused. */
  parts: (string | Buffer)[];
}

/**
 * Runs `run` once per Idempotency-Key (per member and endpoint): a retry of the same request
 * gets the first answer again (with `Idempotent-Replayed: true`), the same key with another
 * request is refused (422 `idempotencyKeyReused`), and a retry while the first still runs is
 * told to wait (409 `inProgress`). The answer is recorded as soon as `run` has committed, even
 * if the client has gone; a failed request gives its key back. Without a header, `run` just runs.
 */
export async function answerOnce<T>(input: KeyedRequest, run: () => Promise<T>): Promise<T> {
  const key = idempotencyKeyOf(input.req);
  if (key === null) return run();
  const { db } = input;
  const id: KeyId = { userId: input.userId, endpoint: `${input.def.method} ${input.def.path}`, key };
  const requestHash = hashOf(input.parts);
  await deleteExpiredKeys(db, IDEMPOTENCY_KEPT_S);
  if (!(await claimKey(db, id, requestHash))) {
    const found = await readKey(db, id);
    // Deleted since the claim failed (its request failed, or it expired): this request takes it.
    if (!found) return answerOnce(input, run);
    if (found.requestHash !== requestHash)
      throw new HttpError(
        422,
        "idempotencyKeyReused",
        "This Idempotency-Key was already used for a different request. Send a new key for a new request.",
      );
    if (found.status !== null) {
      void input.reply.header("idempotent-replayed", "true").status(found.status);
      return found.answer as T;
    }
    if (!(await retakeKey(db, id, requestHash, IDEMPOTENCY_ABANDONED_S)))
      throw new HttpError(409, "inProgress", "This request is still being handled. Try again in a moment.");
  }
  let answer: T;
  try {
    answer = await run();
  } catch (error) {
    await releaseKey(db, id);
    throw error;
  }
  await recordAnswer(db, id, input.def.status ?? 200, answer);
  return answer;
}

/** An upload's chunks as one buffer (the upload keeps its own size limit while they are read). */
export async function readWhole(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const read: Buffer[] = [];
  for await (const chunk of chunks) read.push(chunk);
  return Buffer.concat(read);
}
