import type { FastifyInstance } from "fastify";
import type { Auth } from "./auth.ts";
import { toHeaders } from "./viewer.ts";

/**
 * Hands /api/auth/* to better-auth as a Fetch Request. Bodies stay raw strings in this scope,
 * because better-auth parses them itself.
 */
export async function authRoutes(app: FastifyInstance, opts: { auth: Auth }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    async handler(req, reply) {
      const url = new URL(req.url, `${req.protocol}://${req.headers.host ?? "localhost"}`);
      const hasBody = req.method !== "GET" && typeof req.body === "string" && req.body.length > 0;
      const response = await opts.auth.handler(
        new Request(url, {
          method: req.method,
          headers: toHeaders(req.headers),
          body: hasBody ? (req.body as string) : undefined,
        }),
      );
      reply.status(response.status);
      for (const [key, value] of response.headers) {
        if (key === "set-cookie") continue;
        reply.header(key, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      if (!response.body) return reply.send(null);
      const body = Buffer.from(await response.arrayBuffer());
      return reply.send(
        response.headers.get("content-type")?.includes("json") ? withoutSessionToken(body) : body,
      );
    },
  });
}

/**
 * better-auth echoes the session token in sign-in/sign-up bodies. The cookie already carries it
 * (httpOnly); keeping it out of page-readable JSON means a script on the page can never steal it.
 */
function withoutSessionToken(body: Buffer): Buffer {
  try {
    const json = JSON.parse(body.toString("utf8")) as unknown;
    if (json && typeof json === "object" && "token" in json) {
      const { token: _dropped, ...rest } = json as Record<string, unknown>;
      return Buffer.from(JSON.stringify(rest));
    }
  } catch {
    // Not JSON after all: pass it through untouched.
  }
  return body;
}
