/**
 * Reading requests the way Stripe does: bodies and query strings are form-encoded with brackets
 * (`items[0][price]=…`, `expand[]=…`, `metadata[key]=`), and an empty value means "unset".
 * Errors answer with Stripe's `{ error: { type, code, message, param } }` and its status codes.
 */

export type Params = { [key: string]: Value };
export type Value = string | Value[] | Params;

/** `a[b][0][c]=x` → `{ a: { b: [{ c: "x" }] } }`; objects whose keys are all indices become arrays. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = key.match(/^[^[\]]+|\[[^\]]*\]/g)?.map((s) => s.replace(/^\[|\]$/g, "")) ?? [];
    if (segments.length === 0) continue;
    let node: Params = root;
    segments.forEach((segment, i) => {
      const name = segment === "" ? String(Object.keys(node).length) : segment;
      if (i === segments.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (next === undefined || typeof next === "string") node[name] = {};
      node = node[name] as Params;
    });
  }
  return arrayify(root) as Params;
}

function arrayify(value: Value): Value {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, arrayify(value[k] as Value)] as const);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

/** An error Stripe would answer with. */
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string; [key: string]: unknown },
  ) {
    super(body.message);
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeFailure(400, {
    type: "invalid_request_error",
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });

export const missing = (kind: string, id: string, param = "id") =>
  new StripeFailure(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
    param,
  });

/** Real Stripe refuses parameters it does not know; so does the stand-in, to catch typos. */
export function onlyKnown(params: Params, allowed: readonly string[]) {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw invalid(`Received unknown parameter: ${key}`, key, "parameter_unknown");
  }
}

export const str = (value: Value | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;

export function need(params: Params, key: string): string {
  const value = str(params[key]);
  if (!value) throw invalid(`Missing required param: ${key}.`, key, "parameter_missing");
  return value;
}

export const list = (value: Value | undefined): Value[] => (Array.isArray(value) ? value : []);

export const obj = (value: Value | undefined): Params =>
  value && typeof value === "object" && !Array.isArray(value) ? value : {};

export const bool = (value: Value | undefined): boolean | undefined =>
  value === "true" ? true : value === "false" ? false : undefined;

export function int(value: Value | undefined, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^-?\d+$/.test(value))
    throw invalid(`Invalid integer: ${String(value)}`, param);
  return Number(value);
}

/** Metadata updates merge; an empty value removes its key, an empty `metadata` removes all. */
export function mergeMetadata(current: Record<string, string>, update: Value | undefined) {
  if (update === undefined) return current;
  if (update === "") return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(obj(update))) {
    if (value === "") delete next[key];
    else if (typeof value === "string") next[key] = value;
  }
  return next;
}
