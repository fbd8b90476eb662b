import type { EndpointDef, HandlerResult, ParsedInput } from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { refuseNonJsonBody } from "./body-types.ts";
import { HttpError } from "./errors.ts";
import { parse } from "./validate.ts";

export interface RouteContext<D extends EndpointDef> extends ParsedInput<D> {
  req: FastifyRequest;
  reply: FastifyReply;
}

/** `/api/characters/{id}` → `/api/characters/:id`; a trailing `{key+}` (the rest of the path) → `*`. */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\+\}$/, "*").replace(/\{(\w+)\}/g, ":$1");

/**
 * Registers an endpoint from its contract declaration: params, query and body are parsed with
 * the contract's schemas (400 with the field on a mismatch), and the handler's answer is shaped
 * by the response schema, so no handler can answer a shape the contract does not allow.
 * A JSON body arrives as JSON or not at all (415 before it is read).
 * Streaming and file endpoints answer through `reply` themselves.
 */
export function route<D extends EndpointDef>(
  app: FastifyInstance,
  def: D,
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers of 204 endpoints return nothing at all
  handler: (ctx: RouteContext<D>) => Promise<HandlerResult<D> | FastifyReply | undefined | void>,
): void {
  app.route({
    method: def.method,
    url: fastifyPath(def.path),
    ...(def.body && def.body !== "multipart" ? { onRequest: refuseNonJsonBody } : {}),
    handler: async (req, reply) => {
      const rest = /\{(\w+)\+\}$/.exec(def.path)?.[1];
      const rawParams = rest
        ? { ...(req.params as object), [rest]: (req.params as Record<string, string>)["*"] }
        : req.params;
      const input = {
        params: def.params ? parse(def.params, rawParams) : undefined,
        query: def.query ? parse(def.query, req.query) : undefined,
        body: def.body && def.body !== "multipart" ? parse(def.body, req.body ?? {}) : undefined,
      } as ParsedInput<D>;
      const result = await handler({ ...input, req, reply });
      // A stream or a file is answered by the handler; an endpoint that can stream may also
      // answer JSON, which it returns like any other.
      if (reply.sent || def.file || (def.events && result === undefined)) return reply;
      if (def.response === null) return reply.status(def.status ?? 204).send();
      const checked = def.response.safeParse(result);
      if (!checked.success) {
        // A handler bug, not the caller's: logged with where it broke, answered as a plain 500.
        req.log.error(
          { route: `${def.method} ${def.path}`, issues: checked.error.issues },
          "answer broke the contract",
        );
        throw new HttpError(500, "internal", "Something went wrong on our side. Please try again.");
      }
      // A handler may pick another status for this answer (health's 503); else the contract's.
      return reply
        .status(reply.statusCode !== 200 ? reply.statusCode : (def.status ?? 200))
        .send(checked.data);
    },
  });
}
