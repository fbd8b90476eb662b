import { randomUUID } from "node:crypto";
import type { Db } from "../apps/server/src/db/client.ts";
import { messages } from "../apps/server/src/features/chats/schema.ts";

/** ~300 characters, as in the comparison with SillyTavern. */
export const TEXT = "*leans on the counter* ".repeat(13).slice(0, 300);

/** Fills a conversation with `count` messages, 1,000 rows per INSERT. */
export async function seed(db: Db, conversationId: string, count: number) {
  for (let done = 0; done < count; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - done) }, (_, i) => ({
      id: randomUUID(),
      conversationId,
      role: (done + i) % 2 ? ("user" as const) : ("bot" as const),
      content: TEXT,
      alternatives: [TEXT],
    }));
    await db.insert(messages).values(batch);
  }
}
