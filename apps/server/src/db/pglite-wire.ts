import type { QueryOptions } from "@electric-sql/pglite";

/**
 * What crosses between the process's main thread and the embedded database's thread
 * (threaded-pglite.ts, pglite-thread.ts, decision 022): requests, answers, query options and
 * errors, all in forms a MessagePort can copy (no functions).
 */

/** Where and how the thread opens PGlite (client.ts's PGlite target). */
export interface EmbeddedTarget {
  /** The data directory (absolute), or null for a database in memory. */
  dir: string | null;
  /** Decision 019's window in ms; null: writes not made durable (PGlite as it ships). */
  durabilityWindowMs: number | null;
  /** Vacuum and checkpoint every this many ms (on disk only; 0: never). */
  maintenanceEveryMs: number;
  /** In memory only: a data directory's tar (`dump`'s) to start from instead of an empty one. */
  seed?: Uint8Array;
}

/** Query options that can cross: the row shape, and the types whose values stay text. */
export interface WireOptions {
  rowMode?: "object" | "array";
  /** Type OIDs read as their text (a caller's parser that returns its input as it is). */
  textTypes?: number[];
  paramTypes?: number[];
}

export type ThreadRequest = { id: number } & (
  | { op: "query"; tx?: number; text: string; params: unknown[]; options?: WireOptions }
  | { op: "exec"; tx?: number; text: string; options?: WireOptions }
  | { op: "begin" }
  | { op: "commit" | "rollback"; tx: number }
  | { op: "ready" | "dump" | "stats" | "close" }
);

export type ThreadReply = { id: number } & ({ result: unknown } | { error: WireError });

export interface WireError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own fields that are plain values: PostgreSQL's code, constraint, detail... */
  fields: Record<string, string | number | boolean | null>;
}

/**
 * PGlite's options as they can cross. Drizzle passes parsers that return a timestamp's or a
 * date's text unchanged; those become `textTypes`. Any other parser, a serializer or a file
 * (COPY) cannot run on the other thread and is refused, so no option is silently dropped.
 */
export function toWireOptions(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  // Drizzle passes the same options object with every statement: translated once.
  const known = wired.get(options);
  if (known) return known;
  if (options.serializers || options.blob)
    throw new Error("Serializers and files cannot be sent to the embedded database's thread.");
  const wire: WireOptions = {};
  if (options.rowMode) wire.rowMode = options.rowMode;
  if (options.paramTypes) wire.paramTypes = options.paramTypes;
  if (options.parsers) {
    wire.textTypes = Object.entries(options.parsers).map(([oid, parse]) => {
      if (parse("1", Number(oid)) !== "1")
        throw new Error(`A parser for type ${oid} cannot run on the embedded database's thread.`);
      return Number(oid);
    });
  }
  wired.set(options, wire);
  return wire;
}
const wired = new WeakMap<QueryOptions, WireOptions>();

export function fromWireOptions(wire: WireOptions | undefined): QueryOptions | undefined {
  if (!wire) return undefined;
  // The same few option sets come with every statement: built once each.
  const key = JSON.stringify(wire);
  let options = unwired.get(key);
  if (!options) {
    const { textTypes, ...rest } = wire;
    options = textTypes
      ? { ...rest, parsers: Object.fromEntries(textTypes.map((oid) => [oid, (text: string) => text])) }
      : rest;
    if (unwired.size < 64) unwired.set(key, options);
  }
  return options;
}
const unwired = new Map<string, QueryOptions>();

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: WireError["fields"] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value))
      fields[key] = value as string | number | boolean | null;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error again on this side, with its fields (code, constraint...) and the thread's stack. */
export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message);
  Object.assign(error, wire.fields);
  error.name = wire.name;
  if (wire.stack) error.stack = wire.stack;
  return error;
}
