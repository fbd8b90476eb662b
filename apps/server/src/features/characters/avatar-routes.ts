import { characterEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { readUpload } from "../../http/upload.ts";
import { AVATAR_MAX_BYTES } from "../../lib/avatars.ts";
import { isValidKey } from "../../ports/storage.ts";
import { assertCanChangeAvatar } from "./policy.ts";
import { toCharacter } from "./present.ts";
import { type CharactersRouteDeps, loadCharacter } from "./route-context.ts";

/** Avatar upload and removal, and the file route that serves stored files from any storage adapter. */
export async function avatarRoutes(app: FastifyInstance, deps: CharactersRouteDeps) {
  const { service, storage } = deps;

  // The multipart body is read by the handler, after the viewer may change the avatar.
  route(app, characterEndpoints.setAvatar, async ({ req }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    const editor = assertCanChangeAvatar(viewer, found.character, true);
    const { data } = await readUpload(req, AVATAR_MAX_BYTES);
    const row = await service.setAvatar(editor, found.character, data);
    return toCharacter({ ...found, character: row }, editor, storage);
  });

  route(app, characterEndpoints.removeAvatar, async ({ req }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    const editor = assertCanChangeAvatar(viewer, found.character, false);
    const row = await service.removeAvatar(found.character);
    return toCharacter({ ...found, character: row }, editor, storage);
  });

  // Keys name immutable content (a new upload gets a new key), so browsers may cache for a year.
  // Any key that is not well formed is answered like a missing file (404), never read.
  route(app, characterEndpoints.file, async ({ req, reply }) => {
    const key = (req.params as { "*": string })["*"];
    if (!isValidKey(key)) throw notFound("No such file.");
    const file = await storage.get(key);
    if (!file) throw notFound("No such file.");
    return reply
      .header("content-type", file.contentType)
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .send(file.body);
  });
}
