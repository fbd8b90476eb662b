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
import { type RouteContext, route } from "../../http/route.ts";
import { parse } from "../../http/validate.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { type Auth, assertNotRestricted, getViewer } from "../accounts/index.ts";
import type { ExportCard, ParseCard } from "./cards/types.ts";
import { invalidAccess, type MaybeViewer } from "./policy.ts";
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

/**
 * Whether NSFW bots are shown for this request, the one decision every list, search, creator
 * page, recommendation and single-bot read calls: the family-safe edition never shows them,
 * whatever the client asks; partner mode forces them on (accounts-billing-admin §1, §4).
 */
export function allowNsfw(config: Pick<Config, "edition">, requested: boolean): boolean {
  if (config.edition === "family") return false;
  if (config.edition === "partner") return true;
  return requested;
}
