import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import type { FileStorage } from "../../../ports/storage.ts";
import { messages } from "../schema.ts";

/** A picture's prompt (and, once made, its address) on its message. */
export async function setMessageImage(
  db: Db,
  messageId: string,
  image: { imagePrompt: string; imageUrl?: string },
): Promise<void> {
  await db
    .update(messages)
    .set({ ...image, updatedAt: new Date() })
    .where(eq(messages.id, messageId));
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/** Stores a checked picture under a new key (keys name immutable content) and answers its address. */
export async function storeChatImage(
  storage: FileStorage,
  conversationId: string,
  image: { image: Buffer; contentType: string },
): Promise<string> {
  const key = `chat-images/${conversationId}/${randomBytes(12).toString("hex")}.${EXTENSIONS[image.contentType] ?? "png"}`;
  await storage.put(key, image.image, image.contentType);
  return storage.url(key);
}
