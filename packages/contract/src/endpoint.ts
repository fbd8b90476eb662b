import { z } from "zod";

/**
 * One declaration per HTTP endpoint: method, path, the schemas of its input and answer, and for
 * streaming endpoints the events it sends. The server registers routes from these, the web client
 * calls through them, and the OpenAPI document and the fuzz test are generated from them.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Who may call it, for the reference (the feature's policy decides; this documents it). */
export type EndpointAccess = "anyone" | "member" | "creator" | "admin" | "api-key";

export interface EndpointDef {
  method: HttpMethod;
  /**
   * OpenAPI-style path with `{name}` parameters, e.g. `/api/characters/{id}`; a trailing
   * `{name+}` matches the rest of the path (fastify's `*`, its value in params `"*"`).
   */
  path: string;
  /** One line for the reference. */
  summary: string;
  /** The feature it belongs to (the reference's group). */
  tag: string;
  access: EndpointAccess;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body's schema, or "multipart" for a file upload (read by the handler). */
  body?: z.ZodType | "multipart";
  /** The 2xx answer; null for an empty one (204). */
  response: z.ZodType | null;
  /** Success status; 200 by default, 204 when `response` is null. */
  status?: 200 | 201 | 202 | 204;
  /** A `text/event-stream` answer: the events it sends (each `data:` is one of these). */
  events?: z.ZodType;
  /** Answers a file, not JSON (`response` then describes nothing). */
  file?: string;
  /**
   * Takes an optional `Idempotency-Key` header (8-200 printable characters, a new one per user
   * action): a retry with the same key and request gets the first answer instead of running again
   * (422 `idempotencyKeyReused` for the same key with another request, 409 `inProgress` while the
   * first runs); keys are kept a day.
   */
  idempotencyKey?: true;
  /** The shape of its 4xx/5xx answers when it is not Hearth's `{ code, message }` (the OpenAI API's). */
  error?: z.ZodType;
}

/** Declares an endpoint; the literal types are kept so callers and handlers are typed by it. */
export function endpoint<const D extends EndpointDef>(def: D): D {
  return def;
}

type Schema<D, K extends "params" | "query" | "body"> =
  D extends Record<K, infer S> ? (S extends z.ZodType ? S : never) : never;

/** What a caller sends (before defaults and coercion). */
export type EndpointInput<D extends EndpointDef> = ([Schema<D, "params">] extends [never]
  ? { params?: undefined }
  : { params: z.input<Schema<D, "params">> }) &
  ([Schema<D, "query">] extends [never] ? { query?: undefined } : { query?: z.input<Schema<D, "query">> }) &
  ([Schema<D, "body">] extends [never] ? { body?: undefined } : { body: z.input<Schema<D, "body">> });

/** What a handler receives (after parsing). */
export interface ParsedInput<D extends EndpointDef> {
  params: [Schema<D, "params">] extends [never] ? undefined : z.output<Schema<D, "params">>;
  query: [Schema<D, "query">] extends [never] ? undefined : z.output<Schema<D, "query">>;
  body: [Schema<D, "body">] extends [never] ? undefined : z.output<Schema<D, "body">>;
}

/** The answer's type: what a handler returns and a caller receives. */
export type EndpointResponse<D extends EndpointDef> = D["response"] extends z.ZodType
  ? z.output<D["response"]>
  : undefined;
/** What a handler may return: the answer before the contract's schema shapes it. */
export type HandlerResult<D extends EndpointDef> = D["response"] extends z.ZodType
  ? z.input<D["response"]>
  : undefined;

/** Fills `{name}` in an endpoint's path; `{name+}` takes the rest of the path, slashes kept. */
export function pathOf(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)(\+?)\}/g, (_, name: string, rest: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path}: missing path parameter ${name}`);
    return rest
      ? String(value).split("/").map(encodeURIComponent).join("/")
      : encodeURIComponent(String(value));
  });
}

/** Path ids are UUIDs: anything else is refused by the contract with a 400, never reaches SQL. */
export const uuidParam = z.uuid({ error: "Not a valid id" });
export const idParams = z.object({ id: uuidParam });
