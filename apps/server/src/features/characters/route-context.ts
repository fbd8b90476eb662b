import {
  type EndpointDef,
  type HandlerResult,
  idParams,
  type PromptCost,
  type PromptCostRequest,
} from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { type RouteContext, route } from "../../http/route.ts";
import { parse } from "../../http/validate.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/auth.ts";
import { getViewer } from "../accounts/viewer.ts";
import type { ExportCard, ParseCard } from "./cards/types.ts";
import { assertNotRestricted, invalidAccess, type MaybeViewer } from "./policy.ts";
import type { FoundCharacter } from "./queries.ts";
import type { CharacterService } from "./service.ts";

/** What the characters routes need, handed over by the composition root (app.ts). */
export interface CharactersRouteDeps {
  config: Pick<Config, "edition">;
  db: Db;
  auth: Auth;
  storage: FileStorage;
  service: CharacterService;
  /** The card file modules (cards/parse.ts, cards/export.ts). */
  cards: { parse: ParseCard; export: ExportCard };
  /** What a definition costs on the default model (generation's prompt budget). */
  promptCost: (fields: Required<PromptCostRequest>) => Promise<PromptCost>;
}

export interface LoadedCharacter {
  viewer: MaybeViewer;
  found: FoundCharacter;
}

const loaded = new WeakMap<FastifyRequest, Promise<LoadedCharacter>>();

/**
 * The viewer (or null when signed out) and the character the path names (a UUID, else 400), or
 * 404 invalidAccess. Read once per request: a guard and the handler after it share the lookup.
 */
export function loadCharacter(deps: CharactersRouteDeps, req: FastifyRequest): Promise<LoadedCharacter> {
  let pending = loaded.get(req);
  if (!pending) {
    pending = (async () => {
      const { id } = parse(idParams, req.params);
      const viewer = await getViewer(deps.auth, req);
      const found = await deps.service.find(id, viewer?.id ?? null);
      if (!found) {
        assertNotRestricted(viewer);
        throw invalidAccess();
      }
      return { viewer, found };
    })();
    loaded.set(req, pending);
  }
  return pending;
}

/**
 * Registers an endpoint behind a guard that runs before any of its input is read: the guard is
 * the preHandler of a scope of its own, and route() parses params, query and body only after it,
 * so an unauthorised caller is answered 401/403 whatever it sent. `bodyLimit` raises fastify's
 * body size cap for this endpoint alone.
 */
export async function guardedRoute<D extends EndpointDef>(
  app: FastifyInstance,
  def: D,
  guard: (req: FastifyRequest) => Promise<unknown>,
  handler: (ctx: RouteContext<D>) => Promise<HandlerResult<D> | FastifyReply | undefined>,
  options: { bodyLimit?: number } = {},
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook("preHandler", async (req) => {
      await guard(req);
    });
    const { bodyLimit } = options;
    if (bodyLimit) {
      scope.addHook("onRoute", (opts) => {
        opts.bodyLimit = bodyLimit;
      });
    }
    route(scope, def, handler);
  });
}

/** The family-safe edition never lists NSFW bots, whatever the client asks. */
export function allowNsfw(config: Pick<Config, "edition">, requested: boolean): boolean {
  return requested && config.edition !== "family";
}

/** Reads the one file of a multipart request (field `file`), refusing it past `maxBytes`. */
export async function readUpload(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ data: Buffer; filename: string }> {
  const hint = "Send the file as multipart/form-data in a field named file.";
  if (!req.isMultipart()) throw new HttpError(415, "unsupportedMediaType", hint);
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  if (!part || part.fieldname !== "file")
    throw new HttpError(400, "invalidRequest", `No file was sent. ${hint}`);
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  // The size limit does not always throw: the file may arrive cut at the limit, marked
  // truncated. It is too large, never "damaged".
  if (part.file.truncated || data.length > maxBytes) throw tooLarge(maxBytes);
  return { data, filename: part.filename };
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, "payloadTooLarge", `The file is larger than ${maxBytes / 1024 / 1024} MB.`);

function uploadError(error: unknown, maxBytes: number): HttpError {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(maxBytes);
  // Malformed multipart bodies (cut off, bad boundary) are the client's mistake.
  return new HttpError(400, "invalidRequest", "The upload could not be read. Please try again.");
}
