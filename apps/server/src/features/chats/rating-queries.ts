import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type MessageRow, messages } from "./schema.ts";

export interface MessageRating {
  rating: number;
  reason: string | null;
  expected: string | null;
}

/**
 * Stores a message's rating once: the write only lands on a row not rated yet, so two ratings
 * racing each other leave the first. Answers the updated row, or null when it was rated already.
 */
export async function rateMessage(db: Db, id: string, r: MessageRating): Promise<MessageRow | null> {
  const [row] = await db
    .update(messages)
    .set({ rating: r.rating, ratingReason: r.reason, ratingExpected: r.expected })
    .where(and(eq(messages.id, id), isNull(messages.rating)))
    .returning();
  return row ?? null;
}
