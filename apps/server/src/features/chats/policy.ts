import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { assertPermission, type Viewer } from "../accounts/index.ts";
import { assertCreatorNotBlocked, blockedBotCreator } from "../blocking/index.ts";
import {
  allowNsfw,
  assertCanChat,
  type CharacterRow,
  chattableCharacter,
  invalidAccess,
  type PolicyCharacter,
} from "../characters/index.ts";
import type { ConversationRow } from "./schema.ts";

/**
 * A conversation belongs to the person who started it, and only they may read or change it.
 * Others (administrators too) get a 404: another user's chat never leaks, not even its existence.
 */
export function assertOwnsConversation(
  viewer: Viewer,
  conversation: ConversationRow | null,
): asserts conversation is ConversationRow {
  assertPermission(viewer, "view_chat");
  if (!conversation || conversation.userId !== viewer.id) throw notFound("No such conversation.");
}

/**
 * The character a chat may use, for every chat path (starting, listing one's chats with a bot,
 * reading or continuing one): visible and not restricted (characters' 404 `invalidAccess`), and
 * its creator not blocked by the viewer (403 `blockedBotCreator`, chat-and-characters §6, §8).
 * The family-safe edition hides NSFW bots everywhere, so one asked for by id is as missing here
 * as on its profile.
 */
export async function chattable(
  db: Db,
  viewer: Viewer,
  characterId: string,
  edition: Config["edition"],
): Promise<CharacterRow> {
  const character = await chattableCharacter(db, viewer, characterId);
  if (character.isNsfw && !allowNsfw({ edition }, true)) throw invalidAccess();
  await assertCreatorNotBlocked(db, viewer, character.creatorUserId);
  return character;
}

/**
 * `chattable`'s rules on rows already read (accepting a message reads them with the rest in one
 * query): the live character or null, and whether the viewer blocked its creator.
 */
export function assertChattable<C extends PolicyCharacter & Pick<CharacterRow, "isNsfw">>(
  viewer: Viewer,
  character: C | null,
  creatorBlocked: boolean,
  edition: Config["edition"],
): asserts character is C {
  assertCanChat(viewer, character);
  if (character.isNsfw && !allowNsfw({ edition }, true)) throw invalidAccess();
  if (creatorBlocked && !viewer.isGuest && viewer.id !== character.creatorUserId) throw blockedBotCreator();
}
