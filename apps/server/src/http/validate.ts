import type { z } from "zod";
import { invalidRequest } from "./errors.ts";

/** Parses request input with a contract schema; a mismatch becomes a 400 invalidRequest. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(result.error);
  return result.data;
}
