import multipart from "@fastify/multipart";
import {
  type Persona,
  type PersonaList,
  personaCreate,
  personaListQuery,
  personaUpdate,
} from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PersonaLimits } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { parse } from "../../http/validate.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/auth.ts";
import { getViewer, type Viewer } from "../accounts/viewer.ts";
import { AVATAR_MAX_BYTES } from "../characters/avatars.ts";
import { readUpload } from "../characters/route-context.ts";
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

const idParams = z.object({ id: z.string().max(64) });

/**
 * The personas API (chat-and-characters §2 Personas pages, §4 "Persona default", §5): the
 * viewer's own personas only. Someone else's persona answers 404 like a missing one.
 */
export async function personaRoutes(app: FastifyInstance, deps: PersonasRouteDeps) {
  // Avatars are the only multipart bodies here; the upload route sets its own size cap.
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  const service = new PersonaService({ db: deps.db, storage: deps.storage, limits: deps.limits });
  const present = (row: Parameters<typeof toPersona>[0]) => toPersona(row, deps.storage);

  /** The viewer (who must be allowed personas) and the persona id of the path. */
  const context = async (req: FastifyRequest): Promise<{ viewer: Viewer; id: string }> => {
    const viewer = assertCanUsePersonas(await getViewer(deps.auth, req));
    return { viewer, id: parse(idParams, req.params).id };
  };

  app.get("/api/personas", async (req): Promise<PersonaList> => {
    const viewer = assertCanUsePersonas(await getViewer(deps.auth, req));
    const { q } = parse(personaListQuery, req.query);
    return { personas: (await service.list(viewer.id, q)).map(present) };
  });

  app.post("/api/personas", async (req, reply): Promise<Persona> => {
    const viewer = assertCanUsePersonas(await getViewer(deps.auth, req));
    const fields = parse(personaCreate, req.body);
    const row = await service.create(viewer, fields);
    reply.status(201);
    return present(row);
  });

  // The edit page (/personas/edit/{personaId}) loads one persona.
  app.get("/api/personas/:id", async (req): Promise<Persona> => {
    const { viewer, id } = await context(req);
    return present(await service.get(viewer.id, id));
  });

  app.patch("/api/personas/:id", async (req): Promise<Persona> => {
    const { viewer, id } = await context(req);
    const change = parse(personaUpdate, req.body);
    return present(await service.update(viewer.id, id, change));
  });

  app.delete("/api/personas/:id", async (req, reply) => {
    const { viewer, id } = await context(req);
    await service.delete(viewer.id, id);
    return reply.status(204).send();
  });

  app.post("/api/personas/:id/default", async (req): Promise<Persona> => {
    const { viewer, id } = await context(req);
    return present(await service.setDefault(viewer.id, id));
  });

  app.post("/api/personas/:id/avatar", async (req): Promise<Persona> => {
    const { viewer, id } = await context(req);
    // 404 before reading the upload.
    await service.get(viewer.id, id);
    const { data } = await readUpload(req, AVATAR_MAX_BYTES);
    return present(await service.setAvatar(viewer.id, id, data));
  });

  app.delete("/api/personas/:id/avatar", async (req): Promise<Persona> => {
    const { viewer, id } = await context(req);
    return present(await service.removeAvatar(viewer.id, id));
  });
}
