import {
  type CharacterPage,
  type CharacterTags,
  type CreatorProfile,
  characterBrowseQuery,
  characterTagsQuery,
  creatorQuery,
  type FavoriteState,
  favoritesQuery,
  myCharactersQuery,
} from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { notFound } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import { getViewer } from "../accounts/viewer.ts";
import {
  browseCharacters,
  type CardPage,
  listCreatorCharacters,
  listFavorites,
  listOwnCharacters,
  popularTags,
} from "./list-queries.ts";
import {
  assertCanFavorite,
  assertCanKeepFavorites,
  assertCanListOwn,
  assertNotRestricted,
  isAdmin,
} from "./policy.ts";
import { toCard } from "./present.ts";
import { addFavorite, findUserByUsername, removeFavorite } from "./queries.ts";
import { allowNsfw, type CharactersRouteDeps, loadCharacter } from "./route-context.ts";

const creatorParams = z.object({ username: z.string().max(64) });

/** Browse, My Chatbots, favorites, creator pages and tag chips. */
export async function listRoutes(app: FastifyInstance, deps: CharactersRouteDeps) {
  const { db, storage, config } = deps;
  const toPage = (p: CardPage): CharacterPage => ({
    characters: p.rows.map((r) => toCard(r, storage)),
    next_cursor: p.nextCursor,
  });
  /** Lists are open to everyone, signed in or not, except restricted accounts. */
  const anyone = async (req: FastifyRequest) => {
    const viewer = await getViewer(deps.auth, req);
    assertNotRestricted(viewer);
    return viewer;
  };

  app.get("/api/characters", async (req): Promise<CharacterPage> => {
    await anyone(req);
    const q = parse(characterBrowseQuery, req.query);
    return toPage(await browseCharacters(db, { ...q, nsfw: allowNsfw(config, q.nsfw) }));
  });

  app.get("/api/characters/tags", async (req): Promise<CharacterTags> => {
    await anyone(req);
    const q = parse(characterTagsQuery, req.query);
    return { tags: await popularTags(db, { limit: q.limit, nsfw: allowNsfw(config, q.nsfw) }) };
  });

  app.get("/api/users/characters", async (req): Promise<CharacterPage> => {
    const viewer = assertCanListOwn(await getViewer(deps.auth, req));
    return toPage(await listOwnCharacters(db, viewer.id, parse(myCharactersQuery, req.query)));
  });

  app.get("/api/users/favorites", async (req): Promise<CharacterPage> => {
    const viewer = assertCanKeepFavorites(await getViewer(deps.auth, req));
    const q = parse(favoritesQuery, req.query);
    return toPage(await listFavorites(db, { id: viewer.id, isAdmin: isAdmin(viewer) }, q));
  });

  app.post("/api/characters/:id/favorite", async (req): Promise<FavoriteState> => {
    const { viewer, found } = await loadCharacter(deps, req);
    const member = assertCanFavorite(viewer, found.character);
    return { is_favorite: true, num_favorites: await addFavorite(db, member.id, found.character.id) };
  });

  app.delete("/api/characters/:id/favorite", async (req): Promise<FavoriteState> => {
    const { viewer, found } = await loadCharacter(deps, req);
    const member = assertCanFavorite(viewer, found.character);
    return { is_favorite: false, num_favorites: await removeFavorite(db, member.id, found.character.id) };
  });

  app.get("/api/creators/:username", async (req): Promise<CreatorProfile> => {
    await anyone(req);
    const { username } = parse(creatorParams, req.params);
    const q = parse(creatorQuery, req.query);
    const creator = await findUserByUsername(db, username);
    if (!creator || creator.isAnonymous || !creator.username)
      throw notFound("There is no creator with this name.");
    const rows = await listCreatorCharacters(db, creator.id, allowNsfw(config, q.nsfw));
    return {
      creator: { id: creator.id, username: creator.username, name: creator.name, avatar_url: creator.image },
      characters: rows.map((r) => toCard(r, storage)),
    };
  });
}
