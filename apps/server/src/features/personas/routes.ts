import multipart from "@fastify/multipart";
import { personaEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { PersonaLimits } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { route } from "../../http/route.ts";
import { readUpload } from "../../http/upload.ts";
import { AVATAR_MAX_BYTES } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { type Auth, getViewer, type Viewer } from "../accounts/index.ts";
import { assertCanUsePersonas } from "./policy.ts";
import { toPersona } from "./present.ts";
import { PersonaService } from "./service.ts";

/** What the personas routes need, handed over by the composition root (app.ts). */
export interface PersonasRouteDeps {
  db: Db;
  auth: Auth;
  storage: FileStorage;
  /** HEARTH_PERSONA_LIMITS */
  limits: PersonaLimits;
}

/**
 * The personas API (chat-and-characters §2 Personas pages, §4 "Persona default", §5), declared
 * in the contract (`personaEndpoints`): the viewer's own personas only. Someone else's persona
 * answers 404 like a missing one; an id that is not a UUID is refused by the contract (400).
 */
export async function personaRoutes(app: FastifyInstance, deps: PersonasRouteDeps) {
  // Avatars are the only multipart bodies here; the upload route sets its own size cap.
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  const service = new PersonaService({ db: deps.db, storage: deps.storage, limits: deps.limits });
  const present = (row: Parameters<typeof toPersona>[0]) => toPersona(row, deps.storage);

  // Every route here is for those allowed personas: checked before any input is read, so a
  // signed-out caller or a guest is answered 401/403 whatever they sent.
  app.addHook("preHandler", async (req) => {
    assertCanUsePersonas(await getViewer(deps.auth, req));
  });
  /** The viewer the guard let through (resolved once per request, so this costs nothing). */
  const viewerOf = async (req: FastifyRequest): Promise<Viewer> =>
    assertCanUsePersonas(await getViewer(deps.auth, req));

  route(app, personaEndpoints.list, async ({ req, query }) => {
    const viewer = await viewerOf(req);
    return { personas: (await service.list(viewer.id, query.q)).map(present) };
  });

  route(app, personaEndpoints.create, async ({ req, body }) => {
    return present(await service.create(await viewerOf(req), body));
  });

  // The edit page (/personas/edit/{personaId}) loads one persona.
  route(app, personaEndpoints.get, async ({ req, params }) => {
    return present(await service.get((await viewerOf(req)).id, params.id));
  });

  route(app, personaEndpoints.update, async ({ req, params, body }) => {
    return present(await service.update((await viewerOf(req)).id, params.id, body));
  });

  route(app, personaEndpoints.delete, async ({ req, params }) => {
    await service.delete((await viewerOf(req)).id, params.id);
  });

  route(app, personaEndpoints.setDefault, async ({ req, params }) => {
    return present(await service.setDefault((await viewerOf(req)).id, params.id));
  });

  route(app, personaEndpoints.uploadAvatar, async ({ req, params }) => {
    const viewer = await viewerOf(req);
    // 404 before reading the upload.
    await service.get(viewer.id, params.id);
    const { data } = await readUpload(req, AVATAR_MAX_BYTES);
    return present(await service.setAvatar(viewer.id, params.id, data));
  });

  route(app, personaEndpoints.removeAvatar, async ({ req, params }) => {
    return present(await service.removeAvatar((await viewerOf(req)).id, params.id));
  });
}
