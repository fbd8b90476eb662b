import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "./errors.ts";

/** application/json and the structured-syntax `+json` types (application/merge-patch+json, ...). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export const isJsonType = (contentType: string | undefined): boolean =>
  contentType !== undefined && JSON_TYPE.test(contentType.trim());

const hasBody = (req: FastifyRequest) =>
  Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

/**
 * For routes whose contract body is a JSON schema: a body of any other type is refused with 415
 * before it is read. fastify would parse text/plain too, and text/plain (like a form post) is a
 * body a page on another site can send without asking; JSON is not.
 */
export async function refuseNonJsonBody(req: FastifyRequest): Promise<void> {
  const type = req.headers["content-type"];
  if ((type !== undefined || hasBody(req)) && !isJsonType(type)) {
    throw new HttpError(
      415,
      "unsupportedMediaType",
      "This endpoint takes a JSON body: send it with Content-Type: application/json.",
    );
  }
}

/** fastify parses application/json only; `+json` types are JSON too. */
export function installJsonBodyTypes(app: FastifyInstance): void {
  app.addContentTypeParser(
    /^application\/[\w.-]+\+json$/i,
    { parseAs: "string" },
    app.getDefaultJsonParser("error", "error"),
  );
}
