import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { conversations, messages } from "../chats/schema.ts";

/** A message as Listen needs it: its words, its conversation's owner and voice. */
export interface SpokenMessage {
  id: string;
  role: "user" | "bot";
  content: string;
  state: string;
  conversationId: string;
  characterId: string;
  userId: string;
  voiceId: string | null;
}

export async function findSpokenMessage(db: Db, id: string): Promise<SpokenMessage | null> {
  const [row] = await db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      state: messages.state,
      conversationId: messages.conversationId,
      characterId: conversations.characterId,
      userId: conversations.userId,
      voiceId: conversations.voiceId,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.id, id))
    .limit(1);
  return row ?? null;
}

export async function findConversationVoice(
  db: Db,
  id: string,
): Promise<{ id: string; userId: string; voiceId: string | null } | null> {
  const [row] = await db
    .select({ id: conversations.id, userId: conversations.userId, voiceId: conversations.voiceId })
    .from(conversations)
    .where(eq(conversations.id, id))
    .limit(1);
  return row ?? null;
}

/** Sets a conversation's voice; false when it is gone. */
export async function setConversationVoice(db: Db, id: string, voiceId: string | null): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ voiceId })
    .where(eq(conversations.id, id))
    .returning({ id: conversations.id });
  return rows.length > 0;
}
