import multipart from "@fastify/multipart";
import {
  type Character,
  characterCreate,
  characterGetQuery,
  characterModerationUpdate,
  characterUpdate,
} from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { parse } from "../../http/validate.ts";
import { getViewer } from "../accounts/viewer.ts";
import { avatarRoutes } from "./avatar-routes.ts";
import { cardRoutes } from "./card-routes.ts";
import { listRoutes } from "./list-routes.ts";
import {
  assertCanCreate,
  assertCanDelete,
  assertCanEdit,
  assertCanModerate,
  assertCanOpenEditor,
  assertCanSetVisibility,
  assertCanView,
} from "./policy.ts";
import { toCharacter } from "./present.ts";
import { type CharactersRouteDeps, loadCharacter } from "./route-context.ts";

/**
 * The characters API (chat-and-characters §7, DESIGN §5): create, profile, edit view, edit,
 * delete, and a moderator's decision. Lists, favorites, avatars and card files register from
 * their own files.
 */
/**
 * The app-wide 1 MB body limit is too small for a character the contract allows (long persona
 * and dialogue, 50 alternate greetings, multi-byte text): these bodies may be larger.
 */
const CHARACTER_BODY_LIMIT = 8 * 1024 * 1024;

export async function characterRoutes(app: FastifyInstance, deps: CharactersRouteDeps) {
  // Uploads (avatars, card files) are the only multipart bodies; each route sets its own size cap.
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  const { service, storage } = deps;

  app.post("/api/characters", { bodyLimit: CHARACTER_BODY_LIMIT }, async (req, reply): Promise<Character> => {
    const viewer = assertCanCreate(await getViewer(deps.auth, req));
    const fields = parse(characterCreate, req.body);
    assertCanSetVisibility(viewer, null, fields.visibility);
    const row = await service.create(viewer.id, fields);
    reply.status(201);
    return toCharacter(
      { character: row, creatorUsername: viewer.username, isFavorite: false },
      viewer,
      storage,
    );
  });

  // One handler for the profile and the creator's edit view: `?switch=T1` asks for the latter.
  app.get("/api/characters/:id", async (req): Promise<Character> => {
    const query = parse(characterGetQuery, req.query);
    const { viewer, found } = await loadCharacter(deps, req);
    if (query.switch !== undefined) assertCanOpenEditor(viewer, found.character);
    else assertCanView(viewer, found.character);
    return toCharacter(found, viewer, storage);
  });

  const update = async (req: FastifyRequest): Promise<Character> => {
    const { viewer, found } = await loadCharacter(deps, req);
    const editor = assertCanEdit(viewer, found.character);
    const change = parse(characterUpdate, req.body);
    if (change.visibility) assertCanSetVisibility(editor, found.character.visibility, change.visibility);
    const row = await service.update(editor, found.character, change);
    return toCharacter({ ...found, character: row }, editor, storage);
  };
  // The spec's client sends only the changed fields with either method; both mean "patch".
  app.put("/api/characters/:id", { bodyLimit: CHARACTER_BODY_LIMIT }, update);
  app.patch("/api/characters/:id", { bodyLimit: CHARACTER_BODY_LIMIT }, update);

  app.delete("/api/characters/:id", async (req, reply: FastifyReply) => {
    const { viewer, found } = await loadCharacter(deps, req);
    assertCanDelete(viewer, found.character);
    await service.delete(found.character);
    return reply.status(204).send();
  });

  // Until the moderation feature brings the review table, an admin completes a review here.
  app.put("/api/admin/characters/:id/moderation", async (req): Promise<Character> => {
    const moderator = assertCanModerate(await getViewer(deps.auth, req));
    const { found } = await loadCharacter(deps, req);
    const decision = parse(characterModerationUpdate, req.body);
    const row = await service.moderate(found.character, decision);
    return toCharacter({ ...found, character: row }, moderator, storage);
  });

  await app.register(listRoutes, deps);
  await app.register(avatarRoutes, deps);
  await app.register(cardRoutes, deps);
}
