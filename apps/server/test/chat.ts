import { randomUUID } from "node:crypto";
import type { ConversationCreated, GenerationEvent } from "@hearth/contract";
import type { Db } from "../src/db/client.ts";
import { users } from "../src/features/accounts/schema.ts";
import { type CharacterRow, characters, type NewCharacterRow } from "../src/features/characters/schema.ts";

/** A member and their character straight in the database, for tests of the storage beneath a chat. */
export async function insertTestMember(db: Db): Promise<{ userId: string; characterId: string }> {
  const userId = randomUUID();
  await db.insert(users).values({ id: userId, name: "M", email: `${userId}@example.com` });
  return { userId, characterId: (await insertTestCharacter(db, userId)).id };
}

/** A character straight in the database, for tests of features that only need one to exist. */
export async function insertTestCharacter(
  db: Db,
  creatorUserId: string,
  over: Partial<NewCharacterRow> = {},
): Promise<CharacterRow> {
  const [row] = await db
    .insert(characters)
    .values({
      id: randomUUID(),
      creatorUserId,
      name: "Mira",
      title: "Keeper of old maps",
      greeting: "*looks up from a map* Oh, hello {{user}}! I'm {{char}}.",
      alternateGreetings: ["*waves* Welcome back, {{user}}."],
      persona: "{{char}} is a kind librarian who loves old maps.",
      scenario: "{{user}} visits the library at dusk.",
      visibility: "public",
      moderationStatus: "approved",
      ...over,
    })
    .returning();
  return row as CharacterRow;
}

export interface SseMessage {
  id: string | null;
  event: GenerationEvent;
}

/** Reads a server-sent event stream until it ends (or `stopWhen` says so, which closes it). */
export async function readSse(
  res: Response,
  onEvent?: (m: SseMessage) => boolean | undefined | Promise<boolean | undefined>,
): Promise<SseMessage[]> {
  if (!res.body) throw new Error("no body");
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const out: SseMessage[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let id: string | null = null;
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) id = line.slice(4);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (!data) continue;
      const message = { id, event: JSON.parse(data) as GenerationEvent };
      out.push(message);
      if (await onEvent?.(message)) {
        await reader.cancel();
        return out;
      }
    }
  }
  return out;
}

export const tokensOf = (messages: SseMessage[]) =>
  messages.flatMap((m) => (m.event.type === "token" ? [m.event.text] : [])).join("");

/**
 * Opens a new chat with a character over real HTTP (`base` from `h.listen()`); answers a function
 * that sends a message in it and answers the generate response, its event stream still unread.
 * `extra` adds fields to the generate request. The function carries the chat's `conversationId`.
 */
export async function openTestChat(base: string, cookie: string, characterId: string) {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const { conversation } = (await (
    await post("/api/conversations", { character_id: characterId })
  ).json()) as ConversationCreated;
  const send = (content: string, extra: Record<string, unknown> = {}) =>
    post("/api/generate", {
      type: "text",
      conversation_id: conversation.id,
      action: "send",
      content,
      ...extra,
    });
  return Object.assign(send, { conversationId: conversation.id });
}

/** Opens a new chat (openTestChat) and sends one message, answering the generation's events. */
export async function sendInNewChat(
  base: string,
  cookie: string,
  characterId: string,
  content: string,
  extra: Record<string, unknown> = {},
): Promise<SseMessage[]> {
  const send = await openTestChat(base, cookie, characterId);
  return readSse(await send(content, extra));
}
