import type { FastifyRequest } from "fastify";
import { HttpError } from "../../http/errors.ts";
import { cleanInput } from "../../http/input-hygiene.ts";

/**
 * The body of a request to better-auth, read once by Hearth. better-auth itself reads JSON and,
 * on some routes, form-encoded bodies; Hearth reads both the same way and hands better-auth the
 * JSON of what it read, so its guards (the throttle's e-mail, the NUL refusal) and better-auth
 * can never see two different bodies. Other encodings are refused before better-auth sees them.
 */

export type AuthBody = { present: false } | { present: true; value: unknown; json: string };

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";

export function readAuthBody(req: FastifyRequest): AuthBody {
  const raw = req.method === "GET" || typeof req.body !== "string" ? "" : req.body;
  if (raw.length === 0) return { present: false };
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  let value: unknown;
  if (type === JSON_TYPE) {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new HttpError(400, "invalidRequest", "The request body is not valid JSON.");
    }
  } else if (type === FORM_TYPE) {
    // A repeated field keeps its last value, as better-auth's own form reading did.
    value = Object.fromEntries(new URLSearchParams(raw));
  } else {
    throw new HttpError(
      415,
      "unsupportedMediaType",
      "Sign-in and account requests must be sent as JSON (application/json) or as a form.",
    );
  }
  const clean = cleanInput(value);
  return { present: true, value: clean, json: JSON.stringify(clean) };
}

/** A field of an object body, as read. */
export function fieldOf(body: AuthBody, name: string): unknown {
  if (!body.present || !body.value || typeof body.value !== "object") return undefined;
  return (body.value as Record<string, unknown>)[name];
}

/** The account's e-mail in a body, as better-auth compares it (trimmed, lowercased). */
export function emailOf(body: AuthBody): string | null {
  const email = fieldOf(body, "email");
  // Longer than any address: better-auth refuses it anyway, and it would only bloat a key.
  if (typeof email !== "string" || email.length > 320) return null;
  return email.trim().toLowerCase() || null;
}
