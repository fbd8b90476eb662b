import {
  type CharacterCard,
  type Conversation,
  type ConversationCreated,
  MESSAGE_PAGE_SIZE,
} from "@hearth/contract";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Viewer } from "../accounts/index.ts";
import { findCardRows, toCard } from "../characters/index.ts";
import { findPersona, personaNotFound, resolvePersonaForPrompt } from "../personas/index.ts";
import { toConversation, toMessage } from "./mappers.ts";
import { chattable } from "./policy.ts";
import { resolveMacros } from "./prompt.ts";
import { findUnstartedConversation, insertConversation, messagePage } from "./queries.ts";
import type { ConversationRow } from "./schema.ts";

/** Conversations: starting one, and presenting them with their characters' cards. */
export class ChatService {
  constructor(private deps: { db: Db; storage: FileStorage; edition: Config["edition"] }) {}

  /** A persona given for a chat must be the viewer's own. */
  async assertOwnPersona(viewer: Viewer, personaId: string | null | undefined): Promise<void> {
    if (personaId && !(await findPersona(this.deps.db, viewer.id, personaId))) throw personaNotFound();
  }

  /** Starts a conversation: the greeting is its first bot message, alternate greetings its alternatives. */
  async startConversation(
    viewer: Viewer,
    input: { characterId: string; userPersonaId: string | null },
  ): Promise<ConversationCreated> {
    const { db } = this.deps;
    const character = await chattable(db, viewer, input.characterId, this.deps.edition);
    await this.assertOwnPersona(viewer, input.userPersonaId);
    // Opening a chat again before writing in it reuses the one already opened, instead of
    // leaving a trail of empty chats.
    const unstarted = await findUnstartedConversation(db, viewer.id, character.id, input.userPersonaId);
    if (unstarted) {
      const conversation = await this.withCard(unstarted);
      const page = await messagePage(db, unstarted.id, { limit: MESSAGE_PAGE_SIZE });
      return { conversation, messages: page.rows.map(toMessage) };
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
    const conversation = await this.withCard(created.conversation);
    return { conversation, messages: created.messages.map(toMessage) };
  }

  /** Conversations with their character cards, dropping any whose character is gone. */
  async withCards(rows: ConversationRow[]): Promise<Conversation[]> {
    const cardRows = await findCardRows(this.deps.db, [...new Set(rows.map((r) => r.characterId))]);
    const byId = new Map<string, CharacterCard>(
      cardRows.map((r) => [r.character.id, toCard(r, this.deps.storage)]),
    );
    return rows.flatMap((r) => {
      const card = byId.get(r.characterId);
      return card ? [toConversation(r, card)] : [];
    });
  }

  /** One conversation with its character's card; 404 once the character is gone (or deleted). */
  async withCard(row: ConversationRow): Promise<Conversation> {
    const [full] = await this.withCards([row]);
    if (!full) throw notFound("This conversation's character no longer exists.");
    return full;
  }
}
