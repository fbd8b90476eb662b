import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { ApiError } from "@hearth/contract";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api/", "/v1/", "/metrics"];

/** Serves the built React client with SPA fallback; API paths answer JSON 404s instead. */
export async function serveWeb(app: FastifyInstance, distDir: string) {
  const hasDist = existsSync(path.join(distDir, "index.html"));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      // Hashed assets never change; index.html must always be revalidated to pick up new builds.
      setHeaders(res, file) {
        res.header(
          "cache-control",
          file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split("?")[0] ?? "/";
    if (req.method !== "GET" || API_PREFIXES.some((p) => url === p.replace(/\/$/, "") || url.startsWith(p))) {
      const body: ApiError = { code: "notFound", message: `No route for ${req.method} ${url}` };
      return reply.status(404).send(body);
    }
    if (!hasDist) {
      return reply
        .status(503)
        .type("text/plain")
        .send("The web client is not built yet. Run `npm run build` (npm start does this for you).");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
