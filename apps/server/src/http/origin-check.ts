import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import { HttpError } from "./errors.ts";

/** Methods that change something; GET and HEAD only read (and browsers send them cross-site freely). */
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Routes that guard themselves: better-auth checks the Origin of its own routes, the
 * OpenAI-compatible API is opened by a bearer key, never by a cookie a browser would attach, and
 * payment providers' webhooks are verified by their signature.
 */
const SELF_GUARDED = ["/api/auth/", "/v1/", "/api/billing/webhooks/"];

export const CROSS_ORIGIN_MESSAGE =
  "This request did not come from Hearth's own pages, so it was refused. Open Hearth and try again there.";

/** Origins as browsers write them in the Origin header (lower case, no default port); null if not one. */
export function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Hearth's own origin for this request: PUBLIC_URL when set, else the scheme and host the request
 * came in on (behind a trusted proxy, fastify takes them from X-Forwarded-Proto and -Host), the
 * same rule better-auth applies to /api/auth.
 */
export function ownOrigin(config: Pick<Config, "publicUrl">, req: FastifyRequest): string | null {
  if (config.publicUrl) return normaliseOrigin(config.publicUrl);
  return req.host ? normaliseOrigin(`${req.protocol}://${req.host}`) : null;
}

/**
 * Cross-site request forgery guard: every state-changing request outside the self-guarded routes
 * must carry an Origin header naming Hearth itself (or a configured trusted origin). Browsers send
 * Origin on every non-GET fetch and form post, so a missing one means a client we cannot vouch
 * for; a page on another site (even a sibling subdomain, which SameSite cookies let through) names
 * its own origin. It runs on onRequest, before the body is read and before any handler runs.
 */
export function installOriginCheck(
  app: FastifyInstance,
  config: Pick<Config, "publicUrl" | "trustedOrigins">,
) {
  const trusted = new Set(config.trustedOrigins);
  app.addHook("onRequest", async (req) => {
    if (!STATE_CHANGING.has(req.method)) return;
    // The matched route's pattern, not the raw URL, so no spelling of a path slips past the check.
    const pattern = req.routeOptions.url;
    if (pattern && SELF_GUARDED.some((prefix) => pattern.startsWith(prefix))) return;
    const given = req.headers.origin;
    const origin = typeof given === "string" && given ? normaliseOrigin(given) : null;
    if (origin && (origin === ownOrigin(config, req) || trusted.has(origin))) return;
    throw new HttpError(403, "crossOrigin", CROSS_ORIGIN_MESSAGE);
  });
}
