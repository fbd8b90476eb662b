import {
  type CharacterCard,
  type Conversation,
  type ConversationCreated,
  MESSAGE_PAGE_SIZE,
} from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Viewer } from "../accounts/index.ts";
import { chattableCharacter, findCardRows, toCard } from "../characters/index.ts";
import { findPersona, personaNotFound, resolvePersonaForPrompt } from "../personas/index.ts";
import { toConversation, toMessage } from "./mappers.ts";
import { resolveMacros } from "./prompt.ts";
import { findUnstartedConversation, insertConversation, messagePage } from "./queries.ts";
import type { ConversationRow } from "./schema.ts";

/** A persona given for a chat must be the viewer's own. */
export async function assertOwnPersona(
  db: Db,
  viewer: Viewer,
  personaId: string | null | undefined,
): Promise<void> {
  if (personaId && !(await findPersona(db, viewer.id, personaId))) throw personaNotFound();
}

/** Starts a conversation: the greeting is its first bot message, alternate greetings its alternatives. */
export async function startConversation(
  db: Db,
  storage: FileStorage,
  viewer: Viewer,
  input: { characterId: string; userPersonaId: string | null },
): Promise<ConversationCreated> {
  const character = await chattableCharacter(db, viewer, input.characterId);
  await assertOwnPersona(db, viewer, input.userPersonaId);
  // Opening a chat again before writing in it reuses the one already opened, instead of
  // leaving a trail of empty chats.
  const unstarted = await findUnstartedConversation(db, viewer.id, character.id, input.userPersonaId);
  if (unstarted) {
    const [conversation] = await withCards(db, storage, [unstarted]);
    const page = await messagePage(db, unstarted.id, { limit: MESSAGE_PAGE_SIZE });
    return { conversation: conversation as Conversation, messages: page.rows.map(toMessage) };
  }
  const userName = (await resolvePersonaForPrompt(db, viewer.id, input.userPersonaId)).name;
  const greetings = [character.greeting, ...character.alternateGreetings]
    .filter((g) => g.trim())
    .map((g) => resolveMacros(g, character.name, userName));
  const created = await insertConversation(db, {
    userId: viewer.id,
    characterId: character.id,
    userPersonaId: input.userPersonaId,
    isSaved: !viewer.isGuest,
    greetings,
  });
  const [conversation] = await withCards(db, storage, [created.conversation]);
  return { conversation: conversation as Conversation, messages: created.messages.map(toMessage) };
}

/** Conversations with their character cards, dropping any whose character is gone. */
export async function withCards(
  db: Db,
  storage: FileStorage,
  rows: ConversationRow[],
): Promise<Conversation[]> {
  const cardRows = await findCardRows(db, [...new Set(rows.map((r) => r.characterId))]);
  const byId = new Map<string, CharacterCard>(cardRows.map((r) => [r.character.id, toCard(r, storage)]));
  return rows.flatMap((r) => {
    const card = byId.get(r.characterId);
    return card ? [toConversation(r, card)] : [];
  });
}

/** One conversation with its character's card; 404 once the character is gone (or deleted). */
export async function withCard(db: Db, storage: FileStorage, row: ConversationRow): Promise<Conversation> {
  const [full] = await withCards(db, storage, [row]);
  if (!full) throw notFound("This conversation's character no longer exists.");
  return full;
}
