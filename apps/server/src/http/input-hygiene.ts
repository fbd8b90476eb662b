import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.ts";

/**
 * Text that reaches the database must be storable: PostgreSQL refuses NUL bytes and invalid
 * UTF-16 (lone surrogates) with an error. One hook for every route, Hearth's and better-auth's:
 * a NUL anywhere in the path, query or JSON body is refused with a 400; a lone surrogate is
 * replaced with U+FFFD (it is a broken character, not an attack worth an error).
 */
export function installInputHygiene(app: FastifyInstance): void {
  app.addHook("preValidation", async (req) => {
    if (req.url.includes("%00") || req.url.includes("\u0000")) throw nulError();
    req.params = clean(req.params);
    req.query = clean(req.query);
    req.body = clean(req.body);
  });
}

/**
 * The same rules for a body a route parses itself (better-auth's raw bodies): throws the 400 for
 * a NUL, answers the value with lone surrogates replaced.
 */
export function cleanInput<T>(value: T): T {
  return clean(value);
}

const nulError = () =>
  new HttpError(
    400,
    "invalidRequest",
    "The request contains a NUL character (\\0), which text may not hold.",
  );

/** Depth beyond which a body is refused rather than walked (no legitimate body nests this deep). */
const MAX_DEPTH = 64;

function clean<T>(value: T, depth = 0): T {
  if (typeof value === "string") {
    if (value.includes("\u0000")) throw nulError();
    return (value.isWellFormed() ? value : value.toWellFormed()) as T;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) throw new HttpError(400, "invalidRequest", "The request is nested too deeply.");
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], depth + 1);
    return value;
  }
  if (Buffer.isBuffer(value)) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key.includes("\u0000")) throw nulError();
    record[key] = clean(record[key], depth + 1);
  }
  return value;
}
