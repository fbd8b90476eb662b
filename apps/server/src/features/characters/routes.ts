import multipart from "@fastify/multipart";
import { characterEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { route } from "../../http/route.ts";
import { getViewer } from "../accounts/index.ts";
import { avatarRoutes } from "./avatar-routes.ts";
import { cardRoutes } from "./card-routes.ts";
import { listRoutes } from "./list-routes.ts";
import {
  assertCanCreate,
  assertCanDelete,
  assertCanEdit,
  assertCanOpenEditor,
  assertCanSetVisibility,
  assertCanView,
  invalidAccess,
} from "./policy.ts";
import { toCharacter } from "./present.ts";
import { allowNsfw, type CharactersRouteDeps, guardedRoute, loadCharacter } from "./route-context.ts";
import { translationRoutes, withTranslation } from "./translations.ts";

/**
 * The characters API (chat-and-characters §7, DESIGN §5): create, profile, edit view, edit,
 * delete. Lists, favorites, avatars and card files register from
 * their own files. Every route is declared in packages/contract/src/endpoints/characters.ts.
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
  const creator = async (req: FastifyRequest) => assertCanCreate(await getViewer(deps.auth, req));

  await guardedRoute(
    app,
    characterEndpoints.create,
    creator,
    async ({ req, body }) => {
      const viewer = await creator(req);
      assertCanSetVisibility(viewer, null, body.visibility);
      const row = await service.create(viewer.id, body);
      return toCharacter(
        { character: row, creatorUsername: viewer.username, isFavorite: false },
        viewer,
        storage,
      );
    },
    { bodyLimit: CHARACTER_BODY_LIMIT },
  );

  // One handler for the profile and the creator's edit view: `?switch=T1` asks for the latter.
  route(app, characterEndpoints.get, async ({ req, query }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    if (query.switch !== undefined) assertCanOpenEditor(viewer, found.character);
    else {
      assertCanView(viewer, found.character);
      // The family-safe edition hides NSFW bots everywhere: opened directly, one is as missing.
      if (found.character.isNsfw && !allowNsfw(deps.config, true)) throw invalidAccess();
    }
    const profile = await toCharacter(found, viewer, storage);
    // The editor works on the original; a profile may be asked for in a translation.
    return query.switch !== undefined ? profile : withTranslation(deps, profile, query.language);
  });

  // The spec's client sends only the changed fields with either method; both mean "patch".
  // Who may edit is settled before the body is read.
  const editor = async (req: FastifyRequest) => {
    const { viewer, found } = await loadCharacter(deps, req);
    return { editor: assertCanEdit(viewer, found.character), found };
  };
  for (const def of [characterEndpoints.update, characterEndpoints.replace]) {
    await guardedRoute(
      app,
      def,
      editor,
      async ({ req, body: change }) => {
        const { editor: viewer, found } = await editor(req);
        if (change.visibility) assertCanSetVisibility(viewer, found.character.visibility, change.visibility);
        const row = await service.update(viewer, found.character, change);
        return toCharacter({ ...found, character: row }, viewer, storage);
      },
      { bodyLimit: CHARACTER_BODY_LIMIT },
    );
  }

  route(app, characterEndpoints.delete, async ({ req }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    const deleter = assertCanDelete(viewer, found.character);
    await service.delete(found.character, deleter);
    return undefined;
  });

  // characterEndpoints.moderate (approve or send back) is served by the moderation feature,
  // which closes the bot's reviews and writes the audit log with the decision.

  await app.register(listRoutes, deps);
  await app.register(avatarRoutes, deps);
  await app.register(cardRoutes, deps);
  await app.register(translationRoutes, deps);
}
