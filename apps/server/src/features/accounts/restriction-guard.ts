import type { FastifyInstance } from "fastify";
import type { Auth } from "./auth.ts";
import { assertNotRestricted, restrictedMayReach } from "./policy.ts";
import { getViewer } from "./viewer.ts";

/**
 * Registered once on the root, before any route: a restricted account (restriction `complete` or
 * `temporary`) is answered 403 `restricted` on every API request but the few its restriction page
 * and its data rights need (`restrictedMayReach`), before any handler or a feature's own checks
 * run, so no route can forget it. Requests without a cookie have no account to restrict; the
 * session lookup is the one the route would make anyway (cached per request).
 */
export function refuseRestrictedAccounts(app: FastifyInstance, auth: Auth): void {
  app.addHook("preHandler", async (req) => {
    const pattern = req.routeOptions.url;
    if (!pattern?.startsWith("/api/") || !req.headers.cookie) return;
    const path = pattern === "/api/auth/*" ? (req.url.split("?")[0] ?? pattern) : pattern;
    if (restrictedMayReach(req.method, path)) return;
    assertNotRestricted(await getViewer(auth, req));
  });
}
